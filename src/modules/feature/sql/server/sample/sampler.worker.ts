// The sampler worker service (stage `subscriptions`): on every sql.sample.interval it samples the clusters this worker
// owns (the scrape claims them) into the message index, through its own index writer.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { IndexWriter } from '../index/index-writer.ts';
import { SQL_SETTINGS } from '../sql.settings.ts';
import { Sampler } from './sampler.ts';

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const db = {
    pool: context.pool,
    prisma: context.prisma,
    query: async <Row>(sql: string, params: readonly unknown[] = []) =>
      (await context.pool.query(sql, [...params])).rows as Row[],
    close: () => Promise.resolve(),
  };
  const writer = new IndexWriter({
    pool: context.pool,
    capacity: () => context.settings.integer(SQL_SETTINGS.captureBufferSize),
    notify: (channel, payload) => context.bus.notify(channel, payload),
    governance: { db, bus: context.bus },
  });
  const sampler = new Sampler({ pool: context.pool, db, prisma: context.prisma, settings: context.settings, writer });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    running = (async () => {
      for (const clusterId of shared.ownership.owned()) {
        if (stopped) return;
        try {
          await sampler.pass(clusterId);
        } catch (error) {
          console.error(
            `[sql] sampling cluster ${clusterId} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    })();
    void running.then(() => {
      if (!stopped) timer = setTimeout(loop, context.settings.duration(SQL_SETTINGS.sampleInterval));
    });
  };
  timer = setTimeout(loop, 0);
  return Promise.resolve({
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await writer.stop();
      await shared.detach();
    },
  });
}
