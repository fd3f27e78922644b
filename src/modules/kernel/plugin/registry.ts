// The feature registry: reads every descriptor, applies the toggles, checks the dependency rules and answers
// "is this module on, who owns this path, which topics/settings/jobs exist". Pure: no I/O, so both processes
// and the supervisor build the same registry from the same inputs and fail start-up with the same message.
import { mostSpecificOwner } from '@/base/path-prefix.ts';
import type {
  InstalledModule,
  JobDeclaration,
  ModuleDescriptor,
  ModuleLayer,
  ModuleRegistry,
  PermissionEntry,
  ToggleSource,
  WorkerServiceDeclaration,
} from './descriptor.ts';
import type { ExtensionPoint } from './extension-point.ts';
import { booleanSetting, type SettingDeclaration } from './setting-types.ts';
import { canBeDisabled, enablingProperty, environmentVariableFor } from './toggles.ts';

export interface ToggleInputs {
  /** Process environment (FLOTILLA_FEATURES_<ID>_ENABLED). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Startup properties stored in flotilla_setting, keyed by property name. */
  readonly stored: ReadonlyMap<string, unknown>;
}

export class StartupError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Flotilla cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'StartupError';
  }
}

const LAYER_RANK: Record<ModuleLayer, number> = { kernel: 0, platform: 1, feature: 2 };

class ResolvedRegistry implements ModuleRegistry {
  private readonly byId: ReadonlyMap<string, InstalledModule>;

  constructor(
    readonly modules: readonly InstalledModule[],
    readonly warnings: readonly string[],
  ) {
    this.byId = new Map(modules.map((entry) => [entry.descriptor.id, entry]));
  }

  get(id: string): InstalledModule | undefined {
    return this.byId.get(id);
  }

  isEnabled(id: string): boolean {
    return this.byId.get(id)?.enabled ?? false;
  }

  get enabledDescriptors(): ModuleDescriptor[] {
    return this.modules.filter((entry) => entry.enabled).map((entry) => entry.descriptor);
  }

  ownerOfPath(pathname: string): InstalledModule | undefined {
    return mostSpecificOwner(
      pathname,
      this.modules.map((entry) => ({ owner: entry, prefixes: entry.descriptor.apiPrefixes })),
    );
  }

  largeBodyLimit(method: string, pathname: string): number | undefined {
    return this.enabledDescriptors
      .flatMap((descriptor) => descriptor.largeBodies ?? [])
      .find((entry) => entry.method === method && entry.path === pathname)?.maxBytes;
  }

  enabledTopics(): ReadonlySet<string> {
    return new Set(this.enabledDescriptors.flatMap((descriptor) => descriptor.topics));
  }

  permissionCatalogue(): PermissionEntry[] {
    return this.modules.flatMap((entry) =>
      entry.descriptor.permissions.map((permission) => ({
        ...permission,
        module: entry.descriptor.id,
        enabled: entry.enabled,
      })),
    );
  }

  settingDeclarations(): SettingDeclaration[] {
    const toggles = this.modules
      .filter((entry) => canBeDisabled(entry.descriptor))
      .map((entry) => toggleDeclaration(entry.descriptor));
    return [...this.enabledDescriptors.flatMap((descriptor) => descriptor.settings), ...toggles];
  }

  enabledJobs(): (JobDeclaration & { moduleId: string })[] {
    return this.enabledDescriptors.flatMap((descriptor) =>
      descriptor.jobs.map((job) => ({ ...job, moduleId: descriptor.id })),
    );
  }

  enabledWorkerServices(): (WorkerServiceDeclaration & { moduleId: string })[] {
    return this.enabledDescriptors.flatMap((descriptor) =>
      descriptor.workerServices.map((service) => ({ ...service, moduleId: descriptor.id })),
    );
  }

  contributionsTo<T>(point: ExtensionPoint<T>): { readonly moduleId: string; readonly value: T }[] {
    // A point whose owner is off or absent has no contributions (a module may contribute to one it only uses).
    if (!this.enabledDescriptors.some((descriptor) => descriptor.id === point.owner)) return [];
    return this.enabledDescriptors.flatMap((descriptor) =>
      descriptor.contributions
        .filter((contribution) => contribution.point.id === point.id)
        .map((contribution) => ({ moduleId: descriptor.id, value: contribution.value as T })),
    );
  }
}

function toggleDeclaration(descriptor: ModuleDescriptor): SettingDeclaration {
  return booleanSetting({
    key: enablingProperty(descriptor.id),
    description: `Turns the ${descriptor.title} module on or off. Applies at the next start.`,
    defaultValue: true,
    appliesAt: 'restart',
  });
}

interface ToggleValue {
  readonly enabled: boolean;
  readonly source: ToggleSource;
}

function readToggle(property: string, inputs: ToggleInputs, problems: string[]): ToggleValue {
  const variable = environmentVariableFor(property);
  const fromEnvironment = inputs.environment[variable];
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    const normalised = fromEnvironment.trim().toLowerCase();
    if (normalised !== 'true' && normalised !== 'false') {
      problems.push(`${variable} (${property}) must be true or false, not "${fromEnvironment}"`);
      return { enabled: true, source: 'environment' };
    }
    return { enabled: normalised === 'true', source: 'environment' };
  }
  if (inputs.stored.has(property)) {
    const stored = inputs.stored.get(property);
    if (typeof stored !== 'boolean') {
      problems.push(`${property} stored in flotilla_setting must be true or false, not ${JSON.stringify(stored)}`);
      return { enabled: true, source: 'database' };
    }
    return { enabled: stored, source: 'database' };
  }
  return { enabled: true, source: 'default' };
}

function describeSource(entry: InstalledModule): string {
  if (entry.toggleSource === 'environment') return ` (set by ${environmentVariableFor(entry.enablingProperty)})`;
  if (entry.toggleSource === 'database') return ' (stored in flotilla_setting)';
  return '';
}

function findDuplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(values.filter((value) => seen.size === seen.add(value).size))];
}

function checkDeclarations(descriptors: readonly ModuleDescriptor[], problems: string[]): void {
  const ids = new Set(descriptors.map((descriptor) => descriptor.id));
  for (const duplicate of findDuplicates(descriptors.map((descriptor) => descriptor.id))) {
    problems.push(`module id "${duplicate}" is declared twice`);
  }
  const declared = (pick: (descriptor: ModuleDescriptor) => readonly string[], what: string) => {
    for (const duplicate of findDuplicates(descriptors.flatMap(pick)))
      problems.push(`${what} "${duplicate}" is declared twice`);
  };
  declared((d) => d.permissions.map((permission) => permission.id), 'permission');
  declared((d) => d.settings.map((setting) => setting.key), 'setting key');
  declared((d) => d.topics, 'stream topic');
  declared((d) => d.jobs.map((job) => job.id), 'job');
  declared((d) => d.apiPrefixes, 'API prefix');
  for (const descriptor of descriptors) {
    for (const required of descriptor.requires) {
      const target = descriptors.find((candidate) => candidate.id === required);
      if (!ids.has(required) || !target) {
        problems.push(`module "${descriptor.id}" requires "${required}", which is not installed`);
      } else if (LAYER_RANK[target.layer] > LAYER_RANK[descriptor.layer]) {
        problems.push(
          `${descriptor.layer} module "${descriptor.id}" must not depend on ${target.layer} module "${required}"`,
        );
      }
    }
  }
  const cycle = findCycle(descriptors);
  if (cycle) problems.push(`modules depend on each other in a cycle: ${cycle.join(' -> ')}`);
  checkContributions(descriptors, problems);
}

function checkContributions(descriptors: readonly ModuleDescriptor[], problems: string[]): void {
  const points = new Map<string, { owner: string; cardinality: 'one' | 'many' }>();
  for (const descriptor of descriptors) {
    for (const point of descriptor.extensionPoints) {
      if (point.owner !== descriptor.id) {
        problems.push(`module "${descriptor.id}" declares extension point "${point.id}" owned by "${point.owner}"`);
      } else if (points.has(point.id)) {
        problems.push(`extension point "${point.id}" is declared twice`);
      } else points.set(point.id, point);
    }
  }
  const contributors = new Map<string, string[]>();
  const installed = new Set(descriptors.map((descriptor) => descriptor.id));
  for (const descriptor of descriptors) {
    for (const { point } of descriptor.contributions) {
      const declared = points.get(point.id);
      // A point of a module the contributor only uses is absent when its owner is not installed: nothing reads it.
      if (!declared && descriptor.uses.includes(point.owner) && !installed.has(point.owner)) continue;
      if (!declared) {
        problems.push(`module "${descriptor.id}" contributes to "${point.id}", which no installed module declares`);
        continue;
      }
      if (
        declared.owner !== descriptor.id &&
        !descriptor.requires.includes(declared.owner) &&
        !descriptor.uses.includes(declared.owner)
      ) {
        problems.push(
          `module "${descriptor.id}" contributes to "${point.id}" but neither requires nor uses its owner "${declared.owner}"`,
        );
      }
      contributors.set(point.id, [...(contributors.get(point.id) ?? []), descriptor.id]);
    }
  }
  for (const [id, modules] of contributors) {
    if (points.get(id)?.cardinality === 'one' && modules.length > 1) {
      problems.push(`extension point "${id}" takes one contribution, but ${modules.join(', ')} each contribute`);
    }
  }
}

function findCycle(descriptors: readonly ModuleDescriptor[]): string[] | undefined {
  const requires = new Map(descriptors.map((descriptor) => [descriptor.id, descriptor.requires]));
  const state = new Map<string, 'visiting' | 'done'>();
  const walk = (id: string, path: string[]): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    for (const next of requires.get(id) ?? []) {
      const cycle = walk(next, [...path, id]);
      if (cycle) return cycle;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const descriptor of descriptors) {
    const cycle = walk(descriptor.id, []);
    if (cycle) return cycle;
  }
  return undefined;
}

function unknownToggleWarnings(descriptors: readonly ModuleDescriptor[], inputs: ToggleInputs): string[] {
  const known = new Set(descriptors.map((descriptor) => enablingProperty(descriptor.id)));
  const knownVariables = new Set([...known].map(environmentVariableFor));
  const fromEnvironment = Object.keys(inputs.environment).filter(
    (name) => /^FLOTILLA_FEATURES_.+_ENABLED$/.test(name) && !knownVariables.has(name),
  );
  const fromDatabase = [...inputs.stored.keys()].filter(
    (key) => /^flotilla\.features\..+\.enabled$/.test(key) && !known.has(key),
  );
  return [...fromEnvironment, ...fromDatabase].map((name) => `${name} names no installed module and is ignored`);
}

export function resolveModules(descriptors: readonly ModuleDescriptor[], inputs: ToggleInputs): ModuleRegistry {
  const problems: string[] = [];
  checkDeclarations(descriptors, problems);

  const modules = descriptors.map((descriptor): InstalledModule => {
    const property = enablingProperty(descriptor.id);
    const toggle = readToggle(property, inputs, problems);
    return { descriptor, enabled: toggle.enabled, enablingProperty: property, toggleSource: toggle.source };
  });

  for (const entry of modules) {
    if (!entry.enabled && !canBeDisabled(entry.descriptor)) {
      problems.push(
        `${entry.descriptor.layer} module "${entry.descriptor.id}" is required and cannot be disabled: ` +
          `remove ${entry.enablingProperty}=false${describeSource(entry)}`,
      );
    }
  }
  const byId = new Map(modules.map((entry) => [entry.descriptor.id, entry]));
  for (const entry of modules.filter((candidate) => candidate.enabled)) {
    for (const required of entry.descriptor.requires) {
      const dependency = byId.get(required);
      if (dependency && !dependency.enabled) {
        problems.push(
          `module "${entry.descriptor.id}" requires "${required}", which is disabled by ` +
            `${dependency.enablingProperty}=false${describeSource(dependency)}: enable "${required}" or also set ` +
            `${entry.enablingProperty}=false`,
        );
      }
    }
  }
  if (problems.length > 0) throw new StartupError(problems);
  return new ResolvedRegistry(modules, unknownToggleWarnings(descriptors, inputs));
}
