// What a process holds for its lifetime: database, bus, registry and settings. Built once per process by
// `openRuntime`, which runs every enabled module's process-start hook (the stream module opens the web process's
// hub there; web-runtime.ts hands it to the routes); the worker adds the scheduler (worker/).
import { notificationsOf, type InternalNotifications } from '@/modules/kernel/core/index.ts';
import { type ModuleDescriptor, type ModuleRegistry, resolveModules } from '@/modules/kernel/plugin/index.ts';
import {
  createSettingsStore,
  loadAndFollowSettings,
  readStartupProperties,
  type SettingsStore,
} from '@/modules/kernel/settings/index.ts';
import { readEnvironment, type Environment } from '@/base/env.ts';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database, type PrismaClient } from '@/base/db/database.ts';
import { installedModules } from '@/installation/modules.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('runtime');

export interface Runtime {
  readonly kind: 'web' | 'worker';
  readonly environment: Environment;
  readonly instanceId: string;
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly registry: ModuleRegistry;
  readonly settings: SettingsStore;
  readonly notifications: InternalNotifications;
  close(): Promise<void>;
}

const BUS_READY_TIMEOUT_MS = 10_000;

/** Every enabled module's per-process start hook, in module order (the module wires its own points). */
async function startModules(
  kind: Runtime['kind'],
  registry: ModuleRegistry,
  db: Database,
  bus: DatabaseBus,
  environment: Environment,
  onClose: (hook: () => Promise<void>) => void,
) {
  for (const descriptor of registry.enabledDescriptors) {
    if (descriptor.processStart)
      await (await descriptor.processStart.load()).start({ kind, db, bus, registry, environment, onClose });
  }
}

export async function openRuntime(
  kind: Runtime['kind'],
  source: Readonly<Record<string, string | undefined>> = process.env,
  modules: readonly ModuleDescriptor[] = installedModules,
): Promise<Runtime> {
  const environment = readEnvironment(source);
  const db = openDatabase(environment.databaseUrl, {
    poolSize: environment.poolSize,
    applicationName: `flotilla-${kind}`,
  });
  try {
    const registry = resolveModules(modules, { environment: source, stored: await readStartupProperties(db) });
    for (const warning of registry.warnings) log.warn(warning);
    const bus = createDatabaseBus(environment.databaseUrl, db.pool, `flotilla-${kind}`);
    const settings = createSettingsStore(registry, source);
    await loadAndFollowSettings(settings, db, bus);
    await Promise.race([
      bus.ready(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('database bus did not connect')), BUS_READY_TIMEOUT_MS).unref(),
      ),
    ]);
    const closeHooks: (() => Promise<void>)[] = [];
    await startModules(kind, registry, db, bus, environment, (hook) => closeHooks.unshift(hook));
    return {
      kind,
      environment,
      instanceId: environment.instanceId,
      db,
      prisma: db.prisma,
      bus,
      registry,
      settings,
      notifications: notificationsOf(bus),
      async close() {
        for (const hook of closeHooks.splice(0))
          await hook().catch((error: unknown) => log.error({ err: error }, 'a module failed to close'));
        await bus.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
