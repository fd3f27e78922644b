// The module rules dependency-cruiser cannot state: imports between modules must match what each importer declares
// in `requires` (fed from dependency-cruiser's graph, see cruise.ts), only kernel/stream and the SQL live tail open
// server-sent events, and every module folder holds a descriptor of its own layer. Pure over their inputs, so
// module-rules.test.ts can feed them a violating graph and see each one fail.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ModuleDescriptor } from '../../src/modules/kernel/plugin/index.ts';
import type { ModuleImport } from './cruise.ts';

/** Every module implements plugin's contract (descriptor, settings, extension points): that is no dependency. */
const CONTRACT_MODULE = 'plugin';
const SSE_OWNERS = ['src/modules/kernel/stream/', 'src/modules/feature/sql/'];

/**
 * Production imports between modules that their importer does not declare (in `requires`, or in `uses` for a module
 * it calls only while that one is enabled), and declarations that no file imports (a stale declaration hides the
 * real graph as surely as a missing one).
 */
export function findRequiresMismatches(
  imports: readonly ModuleImport[],
  descriptors: readonly ModuleDescriptor[],
): string[] {
  const observed = new Map<string, Set<string>>();
  const problems: string[] = [];
  for (const edge of imports) {
    if (edge.imported === CONTRACT_MODULE) continue;
    const importer = descriptors.find((descriptor) => descriptor.id === edge.importer);
    const declared = [...(importer?.requires ?? []), ...(importer?.uses ?? [])];
    if (!edge.fromTest) observed.set(edge.importer, (observed.get(edge.importer) ?? new Set()).add(edge.imported));
    if (!declared.includes(edge.imported) && !edge.fromTest) {
      problems.push(
        `${edge.file} imports module "${edge.imported}", which "${edge.importer}" declares in neither requires nor uses`,
      );
    } else if (
      !edge.fromTest &&
      !edge.lazy &&
      !importer?.requires.includes(edge.imported) &&
      // A used module's descriptor is data and lazy imports only: a contribution to its extension point names it.
      !(edge.file.endsWith('/module.ts') && edge.target.endsWith('/module.ts'))
    ) {
      // A module in `uses` may be off or absent: its code loads only once the importer has seen it enabled.
      problems.push(
        `${edge.file} imports module "${edge.imported}" statically, but "${edge.importer}" only uses it: import it lazily`,
      );
    }
  }
  for (const descriptor of descriptors) {
    for (const [list, ids] of [
      ['requires', descriptor.requires],
      ['uses', descriptor.uses],
    ] as const) {
      for (const required of ids) {
        if (required === CONTRACT_MODULE || observed.get(descriptor.id)?.has(required)) continue;
        problems.push(`module "${descriptor.id}" declares "${required}" in ${list}, but none of its files imports it`);
      }
    }
  }
  return [...new Set(problems)];
}

export interface SourceFile {
  /** Path relative to the repository root, with forward slashes. */
  readonly path: string;
  readonly text: string;
}

export function readSources(root: string, directory = 'src'): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(root, relative))) {
      const child = path.posix.join(relative, name);
      if (statSync(path.join(root, child)).isDirectory()) {
        if (name !== 'generated' && name !== 'node_modules') walk(child);
      } else if (/\.tsx?$/.test(name)) {
        files.push({ path: child, text: readFileSync(path.join(root, child), 'utf8') });
      }
    }
  };
  if (existsSync(path.join(root, directory))) walk(directory);
  return files;
}

export function findSseViolations(files: readonly SourceFile[]): string[] {
  return files
    .filter(
      (file) =>
        file.text.includes('text/event-stream') &&
        !SSE_OWNERS.some((owner) => file.path.startsWith(owner)) &&
        !/\.test\.tsx?$/.test(file.path),
    )
    .map((file) => `${file.path} opens a server-sent-event stream: only kernel/stream and the SQL live tail may`);
}

/** Every module folder must hold a descriptor with the folder's id and layer, and be installed. */
export function findMisplacedModules(root: string, descriptors: readonly ModuleDescriptor[]): string[] {
  const problems: string[] = [];
  const installed = new Map(descriptors.map((descriptor) => [descriptor.id, descriptor]));
  for (const layer of ['kernel', 'platform', 'feature'] as const) {
    const layerDirectory = path.join(root, 'src/modules', layer);
    if (!existsSync(layerDirectory)) continue;
    for (const id of readdirSync(layerDirectory)) {
      const descriptor = installed.get(id);
      if (!existsSync(path.join(layerDirectory, id, 'module.ts')))
        problems.push(`src/modules/${layer}/${id} has no module.ts`);
      else if (!descriptor) problems.push(`src/modules/${layer}/${id} is not listed in src/installation/modules.ts`);
      else if (descriptor.layer !== layer)
        problems.push(`module "${id}" declares layer ${descriptor.layer} but lives under ${layer}/`);
    }
  }
  return problems;
}

/** The path a descriptor's lazy `load` imports, read from its source (the test runner may rewrite `import(` but keeps
 * the string). */
export const lazyImportPath = (load: () => unknown): string =>
  /['"]([^'"]+)['"]/.exec(load.toString())?.[1] ?? load.toString();
