// The plugin operations behind the router: upload (validate, store), plan (what an operation would do), the lifecycle
// operations themselves, settings, and leaving safe mode. Each change runs through runPluginOperation: one at a time,
// audited before it touches anything, announced to every web process after it commits.
import type { TrpcContext } from '@/modules/kernel/access/index.ts';
import type { Transaction } from '@/base/db/database.ts';
import { audited, openAudit } from '@/modules/kernel/audit/index.ts';
import { forgetRolePermissions } from '@/modules/kernel/security/index.ts';
import { announceForgottenSettings, forgetRuntimeSettings } from '@/modules/kernel/settings/index.ts';
import { ProblemError, validationProblem, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { PluginManifest } from '../validation/manifest.ts';
import { dropPluginDatabase } from './host/plugin-database.ts';
import { PLUGINS_CHANNEL } from './host/plugin-manager.ts';
import { leaveSafeMode } from './lifecycle/safe-mode.ts';
import { operationRefusedProblem, pluginNotFoundProblem, runPluginOperation } from './lifecycle/operations.ts';
import { refusalOf, stateAfter, type PluginOperation, type PluginState } from './lifecycle/states.ts';
import { pluginsOf } from './process-start.ts';
import {
  forgetPlugin,
  movePlugin,
  readArchiveBytes,
  readPlugin,
  sha256Of,
  storeArchive,
} from './store/plugin-store.ts';
import { hostCatalogueOf, invalidArchiveProblem, validateArchive, validateStoredArchive } from './validate-stored.ts';

type ProcedureRuntime = TrpcContext['runtime'];

const hostCatalogue = (runtime: ProcedureRuntime) => hostCatalogueOf(runtime.registry);

function decodeArchive(base64: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64.replace(/\s/g, '')))
    throw new ProblemError(validationProblem([{ field: 'archive', message: 'must be the archive in base64' }]));
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

export async function uploadArchive(
  runtime: ProcedureRuntime,
  request: RequestContext,
  input: { archive: string; dryRun: boolean },
) {
  const bytes = decodeArchive(input.archive);
  const result = validateArchive(bytes, hostCatalogue(runtime));
  if (!result.ok) throw invalidArchiveProblem(result.findings);
  const { manifest } = result;
  const existing = await runtime.prisma.pluginArchive.findUnique({
    where: { pluginId_version: { pluginId: manifest.id, version: manifest.version } },
    select: { sha256: true },
  });
  if (existing)
    throw new ProblemError({
      type: 'plugin-version-exists',
      title: 'This version is already uploaded',
      status: 409,
      detail: `${manifest.id} ${manifest.version} is already uploaded${existing.sha256 === sha256Of(bytes) ? ' (the same archive)' : ' with other content: give the new archive a new version'}.`,
    });
  await audited(
    runtime.prisma,
    request,
    {
      action: 'plugin.upload',
      target: manifest.id,
      parameters: { version: manifest.version, sha256: sha256Of(bytes) },
      dryRun: input.dryRun,
    },
    async (tx) => {
      if (!input.dryRun)
        await storeArchive(tx, {
          pluginId: manifest.id,
          version: manifest.version,
          bytes,
          manifest,
          actor: request.actor.name,
        });
      return { result: undefined };
    },
  );
  if (!input.dryRun) await runtime.bus.notify(PLUGINS_CHANNEL, manifest.id).catch(() => undefined);
  return {
    id: manifest.id,
    version: manifest.version,
    sha256: sha256Of(bytes),
    dryRun: input.dryRun,
    manifest: manifest as Record<string, unknown>,
  };
}

function targetVersionOf(
  operation: PluginOperation,
  row: { version: string; previousVersion: string | null },
  asked?: string,
) {
  if (operation === 'activate') return asked ?? row.version;
  if (operation === 'rollback') return row.previousVersion;
  return null;
}

function addsOf(manifest: PluginManifest): Record<string, string[]> {
  return {
    permissions: manifest.permissions.map((entry) => entry.id),
    settings: manifest.settings.map((entry) => entry.key),
    topics: manifest.topics.map((entry) => entry.id),
    jobs: manifest.jobs.map((entry) => `${entry.id} every ${entry.every}`),
    mcpTools: manifest.mcpTools.map((entry) => entry.name),
    routes: manifest.routes.map(
      (entry) => `${entry.method} ${entry.cluster ? '/api/v1/clusters/{id}' : '/api/v1'}/p/${manifest.id}${entry.path}`,
    ),
    uiContributions: manifest.uiContributions.map((entry) => `${entry.kind} ${entry.id} in ${entry.slot}`),
  };
}

function stepsOf(
  operation: PluginOperation,
  id: string,
  from: string,
  to: string | null,
  activation: string | null,
): string[] {
  switch (operation) {
    case 'activate':
    case 'rollback':
      return [
        `Validate ${id} ${String(to)} again (nothing runs)`,
        ...(from !== to ? [`Stop ${id} ${from} where it runs`] : []),
        `Run its migrations not yet run, in schema plugin_${id.replaceAll('-', '_')}, as its own database role`,
        `Start ${id} ${String(to)} in its own process on every web process${activation === 'restart' ? ' (the service restarts itself: the manifest asks for Restart)' : activation === 'brief-maintenance' ? ' (its routes answer 503 while it switches)' : ''}`,
      ];
    case 'disable':
      return [`Stop ${id} on every web process: its routes, jobs and tools are gone`];
    case 'uninstall':
      return [`Mark ${id} uninstalled: nothing runs; its schema and archives stay until purge`];
    case 'purge':
      return [
        `Drop schema plugin_${id.replaceAll('-', '_')} with its data and the plugin's database role`,
        `Delete every archive of ${id}`,
        `Take its permissions (${id}:…) out of every custom role that carries one`,
        `Delete its settings' stored values (${id}.…) from the settings store`,
      ];
  }
}

async function positionOf(runtime: ProcedureRuntime, id: string) {
  const row = await readPlugin(runtime.prisma, id);
  if (!row) throw pluginNotFoundProblem();
  return row;
}

export async function planOperation(
  runtime: ProcedureRuntime,
  input: { id: string; operation: PluginOperation; version?: string | undefined },
) {
  const row = await positionOf(runtime, input.id);
  const to = targetVersionOf(input.operation, row, input.version);
  let refusal = refusalOf(input.operation, row, to ?? undefined) ?? null;
  let findings: { code: string; entry?: string; message: string }[] = [];
  let manifest: PluginManifest | undefined;
  let migrations: string[] = [];
  if (to) {
    const bytes = await readArchiveBytes(runtime.prisma, input.id, to);
    if (!bytes) refusal ??= `There is no uploaded version ${to}.`;
    else {
      const result = validateArchive(bytes, hostCatalogue(runtime));
      if (result.ok) {
        manifest = result.manifest;
        // The archive's migrations this plugin's schema has not run yet, in the order they would run.
        const applied = new Set(
          (
            await runtime.prisma.pluginMigration.findMany({ where: { pluginId: input.id }, select: { name: true } })
          ).map((row) => row.name),
        );
        migrations = [...result.files.keys()]
          .filter((name) => name.startsWith('migrations/') && !applied.has(name))
          .sort();
      } else {
        findings = [...result.findings];
        refusal ??= 'Its archive no longer passes validation.';
      }
    }
  }
  return {
    id: input.id,
    operation: input.operation,
    allowed: refusal === null,
    refusal,
    fromVersion: row.version,
    toVersion: to,
    activation: manifest?.activation ?? null,
    findings,
    adds: manifest ? addsOf(manifest) : {},
    migrations,
    steps: stepsOf(input.operation, input.id, row.version, to, manifest?.activation ?? null),
  };
}

interface OperationResult {
  id: string;
  operation: PluginOperation;
  dryRun: boolean;
  state: PluginState | null;
  version: string | null;
  steps: string[];
  restart: 'none' | 'restarting' | 'required';
}

const isSupervised = () => typeof process.send === 'function' && process.connected;

export async function runOperation(
  runtime: ProcedureRuntime,
  request: RequestContext,
  operation: PluginOperation,
  input: { id: string; version?: string | undefined; dryRun: boolean },
) {
  const here = pluginsOf(runtime.bus);
  let to: string | null = null;
  let manifest: PluginManifest | undefined;
  let restart: 'none' | 'restarting' | 'required' = 'none';
  let steps: string[] = [];
  return runPluginOperation<OperationResult>(
    { db: runtime.db, bus: runtime.bus, request },
    {
      action: `plugin.${operation}`,
      target: input.id,
      parameters: { version: input.version ?? null },
      dryRun: input.dryRun,
      check: async () => {
        const row = await positionOf(runtime, input.id);
        to = targetVersionOf(operation, row, input.version);
        const refusal = refusalOf(operation, row, to ?? undefined);
        if (refusal) throw operationRefusedProblem(refusal);
        if ((operation === 'activate' || operation === 'rollback') && here?.boot.safeMode)
          throw operationRefusedProblem('This instance is in safe mode: leave safe mode first, then activate.');
        if (to) {
          const bytes = await readArchiveBytes(runtime.prisma, input.id, to);
          if (!bytes) throw operationRefusedProblem(`There is no uploaded version ${to}.`);
          manifest = validateStoredArchive(bytes, hostCatalogue(runtime)).manifest;
        }
        steps = stepsOf(operation, input.id, row.version, to, manifest?.activation ?? null);
      },
      dryRunResult: async () => {
        const row = await positionOf(runtime, input.id);
        return { id: input.id, operation, dryRun: true, state: row.state, version: row.version, steps, restart };
      },
      work: async () => {
        const row = await positionOf(runtime, input.id);
        const actor = request.actor.name;
        if (operation === 'purge') {
          await dropPluginDatabase(runtime.prisma, input.id);
          const forgotten = await runtime.prisma.$transaction(async (tx: Transaction) => {
            await forgetPlugin(tx, input.id);
            // Its permissions go from the custom roles too, and its settings' values: a purge leaves nothing behind.
            await forgetRolePermissions(tx, `${input.id}:`);
            return await forgetRuntimeSettings(tx, `${input.id}.`);
          });
          await announceForgottenSettings(runtime.bus, forgotten);
          return { id: input.id, operation, dryRun: false, state: null, version: null, steps, restart };
        }
        const state = stateAfter(operation) ?? 'UNINSTALLED';
        const version = to ?? row.version;
        const previousVersion =
          (operation === 'activate' || operation === 'rollback') && version !== row.version && row.state !== 'UPLOADED'
            ? row.version
            : row.previousVersion;
        await movePlugin(runtime.prisma, input.id, { state, version, previousVersion, actor });
        if (state === 'ACTIVE' && here) {
          if (manifest?.activation === 'restart' && isSupervised()) {
            restart = 'restarting';
            // After the answer is on its way: the shutdown stops the plugins and notes a clean stop, and the
            // supervisor starts the web process again, which starts the plugin with the rest.
            setTimeout(() => process.kill(process.pid, 'SIGTERM'), 500).unref();
          } else {
            if (manifest?.activation === 'restart') restart = 'required';
            await here.manager.switchTo(input.id, version, manifest?.activation === 'brief-maintenance');
          }
        } else if (here) await here.manager.stop(input.id, operation);
        const after = await readPlugin(runtime.prisma, input.id);
        if (after?.state === 'FAILED')
          throw new ProblemError({
            type: 'plugin-start-failed',
            title: 'The plugin did not start',
            status: 422,
            detail: after.lastError ?? 'It failed to start.',
          });
        return { id: input.id, operation, dryRun: false, state: after?.state ?? state, version, steps, restart };
      },
    },
  );
}

export async function leaveSafeModeEverywhere(
  runtime: ProcedureRuntime,
  request: RequestContext,
  input: { dryRun: boolean },
) {
  let instances = 0;
  await audited(
    runtime.prisma,
    request,
    { action: 'plugin.leave-safe-mode', target: 'plugins', dryRun: input.dryRun },
    async () => {
      instances = input.dryRun
        ? await runtime.prisma.pluginBoot.count({ where: { safeMode: true } })
        : await leaveSafeMode(runtime.prisma);
      return { result: undefined };
    },
  );
  if (!input.dryRun) {
    const here = pluginsOf(runtime.bus);
    if (here) here.boot = { ...here.boot, safeMode: false, safeModeSince: null, reason: null, uncleanBoots: 0 };
    await runtime.bus.notify(PLUGINS_CHANNEL, 'safe-mode').catch(() => undefined);
  }
  return { instances, dryRun: input.dryRun };
}

export async function runJobNow(
  runtime: ProcedureRuntime,
  request: RequestContext,
  input: { id: string; jobId: string; dryRun: boolean },
) {
  const plugin = pluginsOf(runtime.bus)?.manager.get(input.id);
  if (!plugin?.manifest.jobs.some((job) => job.id === input.jobId))
    throw new ProblemError({
      type: 'not-found',
      title: 'Not found',
      status: 404,
      detail: 'No such job of a plugin running here.',
    });
  // The row is committed before the plugin runs anything; no transaction is held across the call.
  const audit = await openAudit(runtime.prisma, request, {
    action: 'plugin.job.run',
    target: `${input.id} ${input.jobId}`,
    dryRun: input.dryRun,
  });
  try {
    const result = input.dryRun ? null : await plugin.process.runJob(input.jobId, {});
    await audit.finish({ outcome: 'SUCCEEDED' });
    return { id: input.id, jobId: input.jobId, dryRun: input.dryRun, result: result ?? null };
  } catch (error) {
    await audit.finish({ outcome: 'FAILED', error: (error as Error).message });
    throw new ProblemError({
      type: 'plugin-failed',
      title: 'The plugin failed',
      status: 502,
      detail: `${input.id} ${input.jobId}: ${(error as Error).message}`,
    });
  }
}
