// What the plugins API shows of a plugin: its row, its archives, the manifest of its current version, its settings'
// values, and whether it runs in the web process that answered.
import type { TrpcContext } from '@/modules/kernel/access/index.ts';
import { runtimeSettingValue } from '@/modules/kernel/settings/index.ts';
import type { PluginManifest } from '../validation/manifest.ts';
import { readBoot } from './lifecycle/safe-mode.ts';
import { pluginNotFoundProblem } from './lifecycle/operations.ts';
import { declaredSettingsOf } from './host/setting-values.ts';
import { pluginsOf } from './process-start.ts';
import { listArchives, listPlugins, type ArchiveRow, type PluginRow } from './store/plugin-store.ts';

type ProcedureRuntime = TrpcContext['runtime'];

function view(runtime: ProcedureRuntime, row: PluginRow, archives: readonly ArchiveRow[]) {
  const current = archives.find((archive) => archive.version === row.version);
  const manifest = (current?.manifest ?? {}) as Partial<PluginManifest>;
  const running = pluginsOf(runtime.bus)?.manager.get(row.id);
  return {
    id: row.id,
    name: manifest.name ?? row.id,
    description: manifest.description ?? '',
    state: row.state,
    version: row.version,
    previousVersion: row.previousVersion,
    activation: manifest.activation ?? 'instant',
    lastError: row.lastError,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
    runningHere: running
      ? {
          version: running.version,
          pid: running.process.pid,
          startedAt: running.startedAt.toISOString(),
          network: running.process.isolation.network,
        }
      : null,
    archives: archives.map((archive) => ({
      version: archive.version,
      sha256: archive.sha256,
      size: archive.size,
      uploadedBy: archive.uploadedBy,
      uploadedAt: archive.uploadedAt.toISOString(),
    })),
    manifest: manifest as Record<string, unknown>,
    // Values from the settings store (where they are changed: GET/PUT /api/v1/settings/{key}).
    settings: declaredSettingsOf(row.id, manifest).map((setting) => ({
      key: setting.key,
      description: setting.description,
      type: setting.kind,
      default: setting.defaultValue,
      value: runtimeSettingValue(runtime.bus, setting),
    })),
  };
}

export async function listPluginViews(runtime: ProcedureRuntime) {
  const [rows, archives] = await Promise.all([listPlugins(runtime.prisma), listArchives(runtime.prisma)]);
  return rows.map((row) =>
    view(
      runtime,
      row,
      archives.filter((archive) => archive.pluginId === row.id),
    ),
  );
}

export async function describePlugin(runtime: ProcedureRuntime, id: string) {
  const [rows, archives] = await Promise.all([listPlugins(runtime.prisma), listArchives(runtime.prisma, id)]);
  const row = rows.find((candidate) => candidate.id === id);
  if (!row) throw pluginNotFoundProblem();
  return view(runtime, row, archives);
}

export async function safeModeHere(runtime: ProcedureRuntime) {
  const here = pluginsOf(runtime.bus);
  const boot = here?.boot ?? (await readBoot(runtime.prisma, runtime.instanceId));
  return {
    instanceId: runtime.instanceId,
    safeMode: boot.safeMode,
    since: boot.safeModeSince?.toISOString() ?? null,
    reason: boot.reason,
    uncleanBoots: boot.uncleanBoots,
  };
}
