// The spec's module dependency rules as a checker over the import graph of src/. Pure, so its own test can feed
// it a violating graph and see it fail. See docs/architecture.md ("Dependency rules").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ModuleDescriptor, ModuleLayer } from '../../src/modules/kernel/plugin/descriptor.ts';

export interface SourceFile {
  /** Path relative to the repository root, with forward slashes. */
  readonly path: string;
  readonly imports: readonly string[];
  readonly text: string;
}

export interface ModuleLocation {
  readonly layer: ModuleLayer;
  readonly id: string;
}

/** The module contract every module implements; importing it is not a dependency on the plugin module. */
const CONTRACT_FILES = new Set([
  'src/modules/kernel/plugin/descriptor.ts',
  'src/modules/kernel/plugin/setting-types.ts',
]);
/** Shell files allowed to name platform and feature modules: the module list and the composed router. */
const SHELL_COMPOSITION_FILES = new Set(['src/server/modules/installed-modules.ts', 'src/server/trpc/app-router.ts']);
const BROKER_LIBRARIES = /^(rhea|jolokia)/;
const SSE_OWNERS = ['src/modules/kernel/stream/', 'src/modules/feature/sql/'];

const IMPORT_PATTERN =
  /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function moduleOf(file: string): ModuleLocation | undefined {
  const match = /^src\/modules\/(kernel|platform|feature)\/([^/]+)\//.exec(file);
  return match ? { layer: match[1] as ModuleLayer, id: match[2] as string } : undefined;
}

export function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT_PATTERN)].map((match) => match[1] ?? match[2] ?? '');
}

/** Resolves a specifier to a repository path when it points inside the repository; packages stay as they are. */
export function resolveSpecifier(fromFile: string, specifier: string): string {
  if (specifier.startsWith('@/')) return path.posix.join('src', specifier.slice(2));
  if (specifier.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return specifier;
}

export function readSources(root: string, directory = 'src'): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(root, relative))) {
      const child = path.posix.join(relative, name);
      if (statSync(path.join(root, child)).isDirectory()) {
        if (name !== 'generated' && name !== 'node_modules') walk(child);
      } else if (/\.tsx?$/.test(name)) {
        const text = readFileSync(path.join(root, child), 'utf8');
        files.push({ path: child, imports: importsOf(text), text });
      }
    }
  };
  if (existsSync(path.join(root, directory))) walk(directory);
  return files;
}

export function findViolations(files: readonly SourceFile[], descriptors: readonly ModuleDescriptor[]): string[] {
  const requires = new Map(descriptors.map((descriptor) => [descriptor.id, new Set(descriptor.requires)]));
  const violations: string[] = [];
  for (const file of files) {
    const importer = moduleOf(file.path);
    const isTest = /\.(int\.)?test\.tsx?$/.test(file.path);
    for (const specifier of file.imports) {
      const target = resolveSpecifier(file.path, specifier);
      if (BROKER_LIBRARIES.test(target) && !file.path.startsWith('src/modules/platform/broker/')) {
        violations.push(`${file.path} imports ${specifier}: broker client libraries stay inside platform/broker`);
      }
      const targetModule = moduleOf(target);
      if (!targetModule || CONTRACT_FILES.has(target)) continue;
      if (!importer) {
        if (
          file.path.startsWith('src/server/') &&
          targetModule.layer !== 'kernel' &&
          !SHELL_COMPOSITION_FILES.has(file.path)
        ) {
          violations.push(
            `${file.path} imports ${targetModule.layer} module "${targetModule.id}": the shell only composes modules`,
          );
        }
        continue;
      }
      if (targetModule.id === importer.id) continue;
      if (importer.layer === 'kernel' && targetModule.layer !== 'kernel') {
        violations.push(
          `${file.path}: kernel module "${importer.id}" imports ${targetModule.layer} module "${targetModule.id}"`,
        );
      }
      if (!isTest && !requires.get(importer.id)?.has(targetModule.id)) {
        violations.push(
          `${file.path} imports module "${targetModule.id}", which "${importer.id}" does not declare in requires`,
        );
      }
    }
    if (
      file.text.includes('text/event-stream') &&
      !SSE_OWNERS.some((owner) => file.path.startsWith(owner)) &&
      !/\.test\.tsx?$/.test(file.path)
    ) {
      violations.push(`${file.path} opens a server-sent-event stream: only kernel/stream and the SQL live tail may`);
    }
  }
  return violations;
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
      else if (!descriptor) problems.push(`src/modules/${layer}/${id} is not listed in installed-modules.ts`);
      else if (descriptor.layer !== layer)
        problems.push(`module "${id}" declares layer ${descriptor.layer} but lives under ${layer}/`);
    }
  }
  return problems;
}
