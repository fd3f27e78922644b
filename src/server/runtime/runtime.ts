// What a process holds for its lifetime: database, bus, registry and settings. Built once per process by
// `openRuntime`; the web process adds the stream hub (web-runtime.ts), the worker the scheduler (worker/).
import { InternalNotifications } from '@/modules/kernel/core/internal-notifications.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/descriptor.ts';
import { resolveModules, type ModuleRegistry } from '@/modules/kernel/plugin/registry.ts';
import type { SettingsStore } from '@/modules/kernel/settings/server/settings-store.ts';
import {
  createSettingsStore,
  loadAndFollowSettings,
  readStartupProperties,
} from '@/modules/kernel/settings/server/settings-sync.ts';
import { readEnvironment, type Environment } from '../config/env.ts';
import { createDatabaseBus, type DatabaseBus } from '../db/bus.ts';
import { openDatabase, type Database, type PrismaClient } from '../db/database.ts';
import { installedModules } from '../modules/installed-modules.ts';

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
    for (const warning of registry.warnings) console.warn(`[modules] ${warning}`);
    const bus = createDatabaseBus(environment.databaseUrl, db.pool, `flotilla-${kind}`);
    const settings = createSettingsStore(registry, source);
    await loadAndFollowSettings(settings, db, bus);
    await Promise.race([
      bus.ready(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('database bus did not connect')), BUS_READY_TIMEOUT_MS).unref(),
      ),
    ]);
    return {
      kind,
      environment,
      instanceId: environment.instanceId,
      db,
      prisma: db.prisma,
      bus,
      registry,
      settings,
      notifications: new InternalNotifications(bus),
      async close() {
        await bus.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
