// The plugin manifest (`plugin.json`): its shape as a strict zod schema, then the rules a schema cannot say alone —
// every id namespaced by the plugin's id, no clash with a built-in module, routes guarded by permissions the plugin
// declares, and UI contributions only where plugins may contribute. Unknown keys are refused, so a field a later SDK
// adds is never silently ignored by an older host.
import { z } from 'zod';
import { BUILT_IN_ROLES } from '@/modules/kernel/plugin/index.ts';
import type { Finding } from './finding.ts';
import { PLUGIN_ARCHIVE_LIMITS } from './limits.ts';

const PLUGIN_ID = /^[a-z][a-z0-9-]{2,31}$/;
// The pattern semver.org recommends.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
/** `30s`, `5m`, `2h`, `1d`; at least a minute, so a plugin cannot keep the scheduler busy. */
const DURATION = /^([1-9]\d{0,4})(s|m|h|d)$/;
const SECONDS_PER_UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const MIN_JOB_SECONDS = 60;
/** Ids after the `<plugin>.` or `<plugin>:` prefix: lower-case words joined by `-`, `.` or `_`. */
const NAMESPACED = /^[a-z0-9]+(?:[-._][a-z0-9]+)*$/;
const SLOT = /^[a-z][a-zA-Z0-9]*(?:\.[a-z][a-zA-Z0-9]*)+$/;
const ROUTE_PATH = /^\/(?:[A-Za-z0-9._~-]+|:[a-zA-Z][a-zA-Z0-9]*)?(?:\/(?:[A-Za-z0-9._~-]+|:[a-zA-Z][a-zA-Z0-9]*))*$/;

const text = (max: number) => z.string().trim().min(1).max(max);
const description = text(500);

const setting = z.discriminatedUnion('type', [
  z.strictObject({ key: z.string(), description, type: z.literal('string'), default: z.string().max(4000) }),
  z.strictObject({ key: z.string(), description, type: z.literal('integer'), default: z.number().int() }),
  z.strictObject({ key: z.string(), description, type: z.literal('boolean'), default: z.boolean() }),
]);

const manifestSchema = z.strictObject({
  id: z.string().regex(PLUGIN_ID, 'must be 3–32 characters: a lower-case letter, then letters, digits or `-`'),
  name: text(80),
  version: z.string().regex(SEMVER, 'must be a semantic version such as 1.2.0'),
  description,
  sdk: z.number().int().positive(),
  activation: z.enum(['instant', 'brief-maintenance', 'restart']),
  server: z.literal('server.js'),
  ui: z.literal('ui.js').optional(),
  permissions: z
    .array(z.strictObject({ id: z.string(), description, includedIn: z.enum(BUILT_IN_ROLES).optional() }))
    .max(50)
    .default([]),
  settings: z.array(setting).max(50).default([]),
  topics: z
    .array(z.strictObject({ id: z.string(), description }))
    .max(50)
    .default([]),
  /** Core topics it listens to (api.events.on): Flotilla's own signals and events, e.g. `queues` or `alerts`. */
  coreEvents: z
    .array(z.strictObject({ topic: z.string(), description }))
    .max(20)
    .default([]),
  jobs: z
    .array(
      z.strictObject({
        id: z.string(),
        description,
        every: z
          .string()
          .regex(DURATION, 'must be a duration such as 30s, 5m, 2h or 1d')
          .refine((every) => durationSeconds(every) >= MIN_JOB_SECONDS, 'must be at least one minute'),
      }),
    )
    .max(20)
    .default([]),
  mcpTools: z
    .array(z.strictObject({ name: z.string(), description, readOnly: z.boolean() }))
    .max(50)
    .default([]),
  routes: z
    .array(
      z.strictObject({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: z.string().max(200).regex(ROUTE_PATH, 'must be a path such as /violations or /violations/:id'),
        permission: z.string(),
        cluster: z.boolean(),
      }),
    )
    .max(100)
    .default([]),
  uiContributions: z
    .array(
      z.strictObject({
        kind: z.enum(['screen', 'panel', 'rowAction', 'settings']),
        slot: z.string().regex(SLOT, 'must be a slot id such as queue.detail.panels'),
        id: z.string(),
      }),
    )
    .max(50)
    .default([]),
  limits: z
    .strictObject({
      memoryMb: z
        .number()
        .int()
        .min(PLUGIN_ARCHIVE_LIMITS.memoryMb.min)
        .max(PLUGIN_ARCHIVE_LIMITS.memoryMb.max)
        .optional(),
      cpuMsPerMinute: z.number().int().min(1).max(PLUGIN_ARCHIVE_LIMITS.maxCpuMsPerMinute).optional(),
    })
    .optional(),
});

export type PluginManifest = z.infer<typeof manifestSchema>;

/** What the host knows that the archive must not collide with or outrun. */
export interface ManifestContext {
  /** Ids of the modules built into Flotilla; a plugin may not take one. */
  readonly builtInModuleIds: readonly string[];
  /** Plugin SDK majors this host runs. */
  readonly supportedSdkMajors: readonly number[];
  /** The topics Flotilla's modules publish: the core events a plugin may listen to. */
  readonly coreTopics: readonly string[];
}

export type ManifestResult =
  { readonly ok: true; readonly manifest: PluginManifest } | { readonly ok: false; readonly findings: Finding[] };

const ENTRY = 'plugin.json';

export function parseManifest(json: unknown, context: ManifestContext): ManifestResult {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      findings: parsed.error.issues.map((issue) => ({
        code: issue.code === 'unrecognized_keys' ? 'manifest-unknown-key' : 'manifest-invalid',
        entry: ENTRY,
        message: `plugin.json${issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''}: ${issue.message}.`,
      })),
    };
  }
  const findings = checkRules(parsed.data, context);
  return findings.length > 0 ? { ok: false, findings } : { ok: true, manifest: parsed.data };
}

function checkRules(manifest: PluginManifest, context: ManifestContext): Finding[] {
  const findings: Finding[] = [];
  const add = (code: string, message: string): void => {
    findings.push({ code, entry: ENTRY, message });
  };
  const { id } = manifest;
  if (context.builtInModuleIds.includes(id)) {
    add('manifest-id-reserved', `The plugin id "${id}" is the id of a built-in module; choose another.`);
  }
  if (!context.supportedSdkMajors.includes(manifest.sdk)) {
    add(
      'manifest-sdk-unsupported',
      `The plugin was built for SDK ${manifest.sdk}; this Flotilla runs SDK ${context.supportedSdkMajors.join(', ')}.`,
    );
  }
  const namespaced = (what: string, value: string, prefix: string): void => {
    if (!value.startsWith(prefix) || !NAMESPACED.test(value.slice(prefix.length))) {
      add(
        'manifest-not-namespaced',
        `The ${what} "${value}" must start with "${prefix}" followed by a lower-case name.`,
      );
    }
  };
  const tool = `${id.replaceAll('-', '_')}_`;
  const groups: [string, string, readonly string[]][] = [
    ['permission', `${id}:`, manifest.permissions.map((permission) => permission.id)],
    ['setting key', `${id}.`, manifest.settings.map((setting) => setting.key)],
    ['topic', `${id}.`, manifest.topics.map((topic) => topic.id)],
    ['job', `${id}.`, manifest.jobs.map((job) => job.id)],
    ['UI contribution', `${id}.`, manifest.uiContributions.map((contribution) => contribution.id)],
    ['MCP tool', tool, manifest.mcpTools.map((mcpTool) => mcpTool.name)],
  ];
  for (const [what, prefix, values] of groups) {
    for (const value of values) namespaced(what, value, prefix);
    for (const twin of duplicates(values)) add('manifest-duplicate-id', `The ${what} "${twin}" is declared twice.`);
  }
  const coreTopics = manifest.coreEvents.map((event) => event.topic);
  for (const topic of coreTopics.filter((candidate) => !context.coreTopics.includes(candidate))) {
    add(
      'manifest-core-event-unknown',
      `The core event topic "${topic}" is not one Flotilla publishes (${context.coreTopics.join(', ')}).`,
    );
  }
  for (const twin of duplicates(coreTopics))
    add('manifest-duplicate-id', `The core event "${twin}" is declared twice.`);
  const declared = new Set(manifest.permissions.map((permission) => permission.id));
  for (const route of manifest.routes) {
    if (!declared.has(route.permission)) {
      add(
        'manifest-route-permission-undeclared',
        `The route ${route.method} ${route.path} requires "${route.permission}", which the plugin does not declare.`,
      );
    }
  }
  for (const twin of duplicates(manifest.routes.map((route) => `${route.method} ${route.path} ${route.cluster}`))) {
    add('manifest-duplicate-id', `The route ${twin.split(' ').slice(0, 2).join(' ')} is declared twice.`);
  }
  for (const contribution of manifest.uiContributions) {
    const problem = contributionProblem(contribution.kind, contribution.slot);
    if (problem) add(problem.code, `The UI contribution "${contribution.id}": ${problem.message}`);
  }
  return findings;
}

/** The navbar's five fixed groups (src/ui/slots/slot-ids.ts), where a plugin's screen is listed: `nav.<group>`. */
const SCREEN_SLOTS: ReadonlySet<string> = new Set(
  ['observe', 'messaging', 'resources', 'configuration', 'activity'].map((group) => `nav.${group}`),
);

/** Links are the built-in modules' own (an entity's name goes to its page); settings sit only under Plugins. */
function contributionProblem(kind: string, slot: string): { code: string; message: string } | undefined {
  if (slot.endsWith('.link'))
    return { code: 'manifest-link-slot', message: 'link slots cannot be contributed by plugins.' };
  if ((kind === 'screen') !== SCREEN_SLOTS.has(slot)) {
    return {
      code: 'manifest-slot-kind',
      message: `a screen is listed in one of the navbar's groups (${[...SCREEN_SLOTS].join(', ')}), and only screens are.`,
    };
  }
  if ((kind === 'settings') !== (slot === 'settings.sections')) {
    return {
      code: 'manifest-settings-slot',
      message: 'settings contributions go to settings.sections (under Plugins), and only settings go there.',
    };
  }
  if ((kind === 'rowAction') !== slot.endsWith('.actions')) {
    return {
      code: 'manifest-slot-kind',
      message: 'row actions go to a `<kind>.actions` slot, and only row actions go there.',
    };
  }
  if (slot === 'admin.tabs' || slot.startsWith('shell.')) {
    return { code: 'manifest-slot-kind', message: `the slot ${slot} is the host's own.` };
  }
  return undefined;
}

function durationSeconds(every: string): number {
  const match = DURATION.exec(every);
  return match ? Number(match[1]) * (SECONDS_PER_UNIT[match[2] ?? 's'] ?? 1) : 0;
}

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const twins = new Set<string>();
  for (const value of values) (seen.has(value) ? twins : seen).add(value);
  return [...twins];
}
