// The worker service that keeps queue_verdict current: after a queue sweep (tier B or C) of a cluster this process
// scrapes (once fleet-wide: the owner of the cluster), it evaluates the cluster's consumer health — at most once a
// minute per cluster, and after every complete tier-C sweep — stores the verdicts and signals `consumer-health`
// to the cluster's and the fleet's screens. Evaluations of one cluster never overlap.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { consumerHealthOf } from './consumer-health-read.ts';
import { storeVerdicts } from './verdict-store.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('metrics');

/** Tier B sweeps come every 15 s by default; judging a cluster more often than this adds load and no news. */
const MIN_INTERVAL_MS = 60_000;

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const db = borrowedDatabase(context.pool, context.prisma);
  const lastRun = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  let stopped = false;

  async function evaluate(clusterId: string): Promise<void> {
    const now = new Date();
    lastRun.set(clusterId, now.getTime());
    try {
      const { items } = await consumerHealthOf(
        { db, prisma: context.prisma, settings: context.settings },
        clusterId,
        now,
      );
      await storeVerdicts(db, clusterId, items, now);
      await context.publishSignal('consumer-health', clusterId);
      await context.publishSignal('consumer-health', INSTALLATION_SCOPE_ID);
    } catch (error) {
      log.error({ err: error, clusterId }, 'cannot judge the consumer health');
    }
  }

  const unsubscribe = context.notifications.subscribe('ScrapeTierCompleted', (completed) => {
    const { clusterId, tier } = completed;
    if (stopped || tier === 'A' || !shared.ownership.owns(clusterId) || running.has(clusterId)) return;
    if (tier === 'B' && Date.now() - (lastRun.get(clusterId) ?? 0) < MIN_INTERVAL_MS) return;
    const work = evaluate(clusterId).finally(() => running.delete(clusterId));
    running.set(clusterId, work);
  });

  return Promise.resolve({
    async stop() {
      stopped = true;
      unsubscribe();
      await Promise.all(running.values());
      await shared.detach();
    },
  });
}
