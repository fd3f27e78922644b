// The plugins running in this web process, kept in step with the plugin rows: started after the application is
// ready, started or stopped when any instance changes a row (the bus's plugins channel), and marked FAILED when
// their process ends on its own (a crash, a limit). Requests, jobs and tools reach a plugin only through here.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tryLockSession, unlockSession } from '@/base/advisory-lock.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import type { EffectiveGrant } from '@/modules/kernel/access/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { startPluginProcess, type PluginProcess } from '../../runtime/plugin-process.ts';
import type { PluginManifest } from '../../validation/manifest.ts';
import { validateStoredArchive, type HostCatalogue } from '../validate-stored.ts';
import { answerHostCall } from './host-api.ts';
import { openPluginDatabase, type PluginDatabase } from './plugin-database.ts';
import { pluginSettingValue } from './setting-values.ts';
import { readArchiveBytes, listPlugins, movePlugin, readPlugin } from '../store/plugin-store.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('plugins');

export const PLUGINS_CHANNEL = 'flotilla_plugins';

export interface RunningPlugin {
  readonly id: string;
  readonly version: string;
  readonly manifest: PluginManifest;
  readonly process: PluginProcess;
  readonly database: PluginDatabase | undefined;
  readonly startedAt: Date;
}

export interface ManagerOptions {
  readonly db: Database;
  readonly registry: ModuleRegistry;
  readonly bus: DatabaseBus;
  readonly databaseUrl: string;
  /** Where archives are unpacked: <dataDir>/plugins/<id>/<version>/. */
  readonly directory: string;
  /** What archives are validated against (validate-stored.ts). */
  readonly host: HostCatalogue;
}

/** What a call on behalf of a user carries to the plugin: the user's grants, given back with its host calls. */
export interface CallContext {
  readonly grants: readonly EffectiveGrant[];
}

function grantsOf(context: unknown): readonly EffectiveGrant[] | undefined {
  return (context as CallContext | undefined)?.grants;
}

export class PluginManager {
  private readonly running = new Map<string, RunningPlugin>();
  private readonly starting = new Map<string, Promise<void>>();
  private readonly jobTimers = new Map<string, NodeJS.Timeout[]>();
  private readonly maintenance = new Set<string>();
  private stopped = false;

  constructor(private readonly options: ManagerOptions) {}

  get(id: string): RunningPlugin | undefined {
    return this.running.get(id);
  }

  list(): RunningPlugin[] {
    return [...this.running.values()];
  }

  /** Brings this process in line with the rows: every ACTIVE plugin running in its version, nothing else. */
  async reconcile(): Promise<void> {
    if (this.stopped) return;
    const rows = await listPlugins(this.options.db.prisma);
    const wanted = new Map(rows.filter((row) => row.state === 'ACTIVE').map((row) => [row.id, row.version]));
    for (const [id, plugin] of this.running)
      if (wanted.get(id) !== plugin.version) await this.stop(id, 'no longer active here');
    for (const [id, version] of wanted) if (!this.running.has(id)) await this.start(id, version).catch(() => undefined);
  }

  /** Starts one plugin; a failure is recorded on its row (FAILED, with why) and thrown. */
  start(id: string, version: string): Promise<void> {
    const pending = this.starting.get(id);
    if (pending) return pending;
    const work = this.startNow(id, version).finally(() => this.starting.delete(id));
    this.starting.set(id, work);
    return work;
  }

  private async startNow(id: string, version: string): Promise<void> {
    const { db } = this.options;
    let database: PluginDatabase | undefined;
    try {
      const bytes = await readArchiveBytes(db.prisma, id, version);
      if (!bytes) throw new Error(`version ${version} has no archive`);
      const valid = validateStoredArchive(bytes, this.options.host);
      const { manifest, files } = valid;
      const folder = path.join(this.options.directory, id, version);
      await unpack(folder, files);
      const migrations = new Map([...files].filter(([name]) => name.startsWith('migrations/')));
      database =
        migrations.size > 0 ? await openPluginDatabase(db.prisma, this.options.databaseUrl, id, migrations) : undefined;
      const process = await startPluginProcess({
        id,
        version,
        directory: folder,
        serverEntry: manifest.server,
        allowed: {
          routes: manifest.routes.map(({ method, path: routePath }) => ({ method, path: routePath })),
          jobs: manifest.jobs.map((job) => job.id),
          tools: manifest.mcpTools.map((tool) => tool.name),
          panels: manifest.uiContributions.filter((entry) => entry.kind === 'panel').map((entry) => entry.id),
          events: manifest.coreEvents.map((event) => event.topic),
        },
        limits: manifest.limits ?? {},
        // The grants of the user behind the call the plugin is answering travel with it (the child lends the call's
        // context to the host calls it makes meanwhile); none for a job, which reads as the installation.
        host: (method, params, context) =>
          answerHostCall(
            {
              db,
              registry: this.options.registry,
              bus: this.options.bus,
              pluginId: id,
              topics: manifest.topics.map((topic) => topic.id),
              database,
              grants: grantsOf(context),
            },
            method,
            params,
          ),
        // Read from the settings store on each call, so a change reaches the plugin as soon as the bus brings it.
        settings: (key) => pluginSettingValue(this.options.bus, id, manifest, key),
        // The plugin's own fields stay under `fields`, so they cannot pass for the host's (level, module, ids).
        log: (level, message, fields) =>
          log[level]({ plugin: id, ...(Object.keys(fields).length > 0 ? { fields } : {}) }, message),
      });
      const plugin: RunningPlugin = { id, version, manifest, process, database, startedAt: new Date() };
      this.running.set(id, plugin);
      this.scheduleJobs(plugin);
      void process.exited.then(async (exit) => {
        if (this.running.get(id) !== plugin) return;
        this.forget(id);
        await database?.close().catch(() => undefined);
        if (exit.reason === 'stopped') return;
        const why = `Its process ended (${exit.reason}): ${exit.detail}`;
        log.error({ plugin: id, version }, why);
        await this.markFailed(id, version, why);
      });
    } catch (error) {
      await database?.close().catch(() => undefined);
      const why = (error as Error).message;
      await this.markFailed(id, version, `It could not start: ${why}`);
      throw error;
    }
  }

  private async markFailed(id: string, version: string, why: string): Promise<void> {
    const row = await readPlugin(this.options.db.prisma, id).catch(() => undefined);
    if (row?.state !== 'ACTIVE' || row.version !== version) return;
    await movePlugin(this.options.db.prisma, id, { state: 'FAILED', lastError: why, actor: 'system' });
    await this.options.bus.notify(PLUGINS_CHANNEL, id).catch(() => undefined);
  }

  /** True while a Brief-maintenance activation switches the plugin: its routes answer 503 meanwhile. */
  inMaintenance(id: string): boolean {
    return this.maintenance.has(id);
  }

  /** Stops the version running here (if any) and starts `version`; the row must already say ACTIVE at it. */
  async switchTo(id: string, version: string, briefMaintenance: boolean): Promise<void> {
    if (briefMaintenance) this.maintenance.add(id);
    try {
      await this.stop(id, `switching to ${version}`);
      await this.start(id, version).catch(() => undefined);
    } finally {
      this.maintenance.delete(id);
    }
  }

  async stop(id: string, reason = 'stopped'): Promise<void> {
    const plugin = this.running.get(id);
    if (!plugin) return;
    this.forget(id);
    await plugin.process.stop(reason).catch(() => undefined);
    await plugin.database?.close().catch(() => undefined);
  }

  private forget(id: string): void {
    this.running.delete(id);
    for (const timer of this.jobTimers.get(id) ?? []) clearInterval(timer);
    this.jobTimers.delete(id);
  }

  /** Each declared job at its cadence; one instance runs a given job at a time (an advisory lock per job). */
  private scheduleJobs(plugin: RunningPlugin): void {
    const timers = plugin.manifest.jobs.map((job) =>
      setInterval(() => void this.runJobOnce(plugin, job.id), durationMs(job.every)),
    );
    for (const timer of timers) timer.unref();
    this.jobTimers.set(plugin.id, timers);
  }

  async runJobOnce(plugin: RunningPlugin, jobId: string): Promise<unknown> {
    const client = await this.options.db.pool.connect();
    const name = `${plugin.id}:${jobId}`;
    try {
      if (!(await tryLockSession(client, 'plugins.jobs', name))) return undefined;
      try {
        return await plugin.process.runJob(jobId, {});
      } finally {
        await unlockSession(client, 'plugins.jobs', name);
      }
    } catch (error) {
      log.error({ err: error, job: name }, 'plugin job failed');
      return undefined;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running.keys()].map((id) => this.stop(id, 'the service is stopping')));
  }
}

function durationMs(every: string): number {
  const match = /^(\d+)([smhd])$/.exec(every);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match?.[2] ?? 'm'] ?? 60_000;
  return Number(match?.[1] ?? 5) * unit;
}

/** A fresh folder holding exactly the archive's files (names were checked by the validation: no `..`, no links). */
async function unpack(folder: string, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  for (const [name, bytes] of files) {
    const target = path.join(folder, name);
    if (!target.startsWith(folder + path.sep)) throw new Error(`entry ${name} would leave the plugin's folder`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
}
