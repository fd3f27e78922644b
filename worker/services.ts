// Starts every enabled module's worker services and stops them in the spec's shutdown order: broker calls and the
// scrape, then subscriptions and capture, then the native connection pools. A service that fails to start is
// logged and left out, so one broken module does not keep the scheduler and the others from running.
import type { RunningWorkerService, WorkerServiceDeclaration } from '@/modules/kernel/plugin/index.ts';
import { publishSignal } from '@/modules/kernel/stream/index.ts';
import type { Runtime } from '@/server/runtime/runtime.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('worker');

const STOP_ORDER: readonly WorkerServiceDeclaration['stage'][] = ['scrape', 'subscriptions', 'pools'];

interface Started {
  readonly id: string;
  readonly stage: WorkerServiceDeclaration['stage'];
  readonly service: RunningWorkerService;
}

export async function startWorkerServices(runtime: Runtime): Promise<{ stop(): Promise<void> }> {
  const started: Started[] = [];
  for (const declaration of runtime.registry.enabledWorkerServices()) {
    try {
      const { start } = await declaration.load();
      const service = await start({
        instanceId: runtime.instanceId,
        prisma: runtime.prisma,
        pool: runtime.db.pool,
        bus: runtime.bus,
        settings: runtime.settings,
        notifications: runtime.notifications,
        registry: runtime.registry,
        publishSignal: (topic, clusterId) => publishSignal(runtime.bus, topic, clusterId),
      });
      started.push({ id: declaration.id, stage: declaration.stage, service });
      log.info({ service: `${declaration.moduleId}/${declaration.id}` }, 'service started');
    } catch (error) {
      log.error({ err: error, service: `${declaration.moduleId}/${declaration.id}` }, 'service did not start');
    }
  }
  return {
    async stop() {
      for (const stage of STOP_ORDER) {
        await Promise.all(
          started
            .filter((entry) => entry.stage === stage)
            .map((entry) =>
              entry.service
                .stop()
                .catch((error: unknown) =>
                  log.error({ err: error, service: entry.id }, 'service did not stop cleanly'),
                ),
            ),
        );
      }
    },
  };
}
