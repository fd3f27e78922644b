// Every archive is validated when it is uploaded and again whenever it is started or planned: the checks are the
// contract, so a stricter host (a later release) refuses what an earlier one accepted, and bytes changed in the
// table are caught before they run.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { validatePluginArchive } from '../validation/validate.ts';
import type { PluginManifest } from '../validation/manifest.ts';
import type { Finding } from '../validation/finding.ts';

/** The plugin SDK majors this release runs (the SDK's exports are frozen per major). */
const SUPPORTED_SDK_MAJORS = [1] as const;

export type Validation =
  | { readonly ok: true; readonly manifest: PluginManifest; readonly files: ReadonlyMap<string, Uint8Array> }
  | { readonly ok: false; readonly findings: readonly Finding[] };

/** What an archive is checked against: the built-in modules' ids (a plugin may not take one) and their topics. */
export interface HostCatalogue {
  readonly moduleIds: readonly string[];
  readonly coreTopics: readonly string[];
}

/** Every built-in module, enabled or not: a plugin listening to a switched-off module's topic just hears nothing. */
export function hostCatalogueOf(registry: ModuleRegistry): HostCatalogue {
  const descriptors = registry.modules.map((installed) => installed.descriptor);
  return {
    moduleIds: descriptors.map((descriptor) => descriptor.id),
    coreTopics: [...new Set(descriptors.flatMap((descriptor) => descriptor.topics))].sort(),
  };
}

export function validateArchive(bytes: Uint8Array, host: HostCatalogue): Validation {
  const result = validatePluginArchive(bytes, {
    builtInModuleIds: host.moduleIds,
    supportedSdkMajors: [...SUPPORTED_SDK_MAJORS],
    coreTopics: host.coreTopics,
  });
  return result.ok
    ? { ok: true, manifest: result.manifest, files: result.files }
    : { ok: false, findings: result.findings };
}

export function invalidArchiveProblem(findings: readonly Finding[]): ProblemError {
  return new ProblemError({
    type: 'plugin-invalid',
    title: 'Plugin archive refused',
    status: 422,
    detail: `The archive was refused without running anything: ${findings[0]?.message ?? 'it is not valid'}${findings.length > 1 ? ` (and ${String(findings.length - 1)} more)` : ''}`,
    findings,
  });
}

/** A stored archive that must be valid (start, activation): its findings otherwise, as an error. */
export function validateStoredArchive(
  bytes: Uint8Array,
  host: HostCatalogue,
): { manifest: PluginManifest; files: ReadonlyMap<string, Uint8Array> } {
  const result = validateArchive(bytes, host);
  if (!result.ok) throw invalidArchiveProblem(result.findings);
  return result;
}
