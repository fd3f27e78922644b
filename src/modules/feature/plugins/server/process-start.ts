// The plugins module's per-process start hook. A web process notes its boot (safe mode counts unclean ones), makes
// its plugin manager, and starts the active plugins once the runtime is open — after, never before, the rest of
// the application: the hook returns at once and the plugins come up beside the first requests. Any instance's
// change to a plugin row reaches every web process on the bus's plugins channel. The worker runs no plugins.
import path from 'node:path';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { ProcessStartContext } from '@/modules/kernel/plugin/index.ts';
import { readBoot, recordBoot, recordCleanStop, type BootRecord } from './lifecycle/safe-mode.ts';
import { PluginManager, PLUGINS_CHANNEL } from './host/plugin-manager.ts';
import { hostCatalogueOf } from './validate-stored.ts';
import { followCoreEvents } from './host/core-events.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('plugins');

export interface PluginsHere {
  readonly manager: PluginManager;
  readonly instanceId: string;
  boot: BootRecord;
  /** Stops every plugin and notes the clean stop (the web process's shutdown). */
  close(): Promise<void>;
}

const here = new WeakMap<DatabaseBus, PluginsHere>();

export async function start({ kind, db, bus, registry, environment, onClose }: ProcessStartContext): Promise<void> {
  if (kind !== 'web') return;
  const manager = new PluginManager({
    db,
    registry,
    bus,
    databaseUrl: environment.databaseUrl,
    directory: path.join(environment.dataDirectory, 'plugins', environment.instanceId),
    host: hostCatalogueOf(registry),
  });
  const boot = await recordBoot(db.prisma, environment.instanceId);
  const plugins: PluginsHere = {
    manager,
    instanceId: environment.instanceId,
    boot,
    close: async () => {
      await manager.close();
      await recordCleanStop(db.prisma, environment.instanceId);
    },
  };
  here.set(bus, plugins);
  onClose(() => plugins.close());
  // Core events reach the plugins running here from this process's stream (host/core-events.ts).
  const stopFollowing = followCoreEvents(bus, () => manager.list());
  onClose(() => {
    stopFollowing();
    return Promise.resolve();
  });
  // Changes arrive one after another; a reconcile never overlaps the previous one.
  let reconciling = Promise.resolve();
  const reconcile = () => {
    reconciling = reconciling
      .then(async () => {
        if (plugins.boot.safeMode) plugins.boot = await readBoot(db.prisma, environment.instanceId);
        if (!plugins.boot.safeMode) await manager.reconcile();
      })
      .catch((error: unknown) => log.error({ err: error }, 'reconcile failed'));
  };
  bus.listen(PLUGINS_CHANNEL, () => reconcile());
  bus.onReconnect(() => reconcile());
  if (boot.safeMode) log.warn({ reason: boot.reason }, 'safe mode: no plugin starts');
  else setImmediate(reconcile);
}

/** This web process's plugins, or undefined in a worker or when the module is off. */
export function pluginsOf(bus: DatabaseBus): PluginsHere | undefined {
  return here.get(bus);
}
