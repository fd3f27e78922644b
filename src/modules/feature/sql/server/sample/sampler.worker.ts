// The sampler worker service (stage `subscriptions`): on every sql.sample.interval it samples the clusters this worker
// owns (the scrape claims them) into the message index, through its own index writer.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { borrowedDatabase } from '@/base/db/database.ts';
import { indexWriterOf } from '../index/index-writer-of.ts';
import { SQL_SETTINGS } from '../sql.settings.ts';
import { Sampler } from './sampler.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('sql');

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const db = borrowedDatabase(context.pool, context.prisma);
  const writer = indexWriterOf(context);
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
          log.error({ err: error, clusterId }, 'sampling the cluster failed');
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
