// The worker service of HA (stage `subscriptions`): feeds tier-A completions to the reconciler in order, follows
// removed clusters, and on stop closes the subscriptions before the native pools close (the next stage).
import type { RunningWorkerService, WorkerServiceContext } from '../../../kernel/plugin/descriptor.ts';
import { processKeys } from '../server/credentials/secret-key.ts';
import { HaReconciler } from './ha-reconciler.ts';

/** How often the subscription cache is compared with what the database holds. */
const SUBSCRIPTION_WATCH_MS = 1_000;

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const reconciler = new HaReconciler({
    instanceId: context.instanceId,
    prisma: context.prisma,
    pool: context.pool,
    keys: processKeys,
    publishSignal: context.publishSignal,
  });
  const unsubscribeTier = context.notifications.subscribe('ScrapeTierCompleted', (completed) =>
    completed.tier === 'A' ? reconciler.tierACompleted(completed.clusterId) : undefined,
  );
  const unsubscribeChange = context.notifications.subscribe('ClusterChanged', (changed) =>
    changed.change === 'removed' ? reconciler.clusterRemoved(changed.clusterId) : undefined,
  );
  const watch = setInterval(() => void reconciler.refreshSubscriptionStates(), SUBSCRIPTION_WATCH_MS);
  watch.unref();
  return Promise.resolve({
    async stop() {
      unsubscribeTier();
      unsubscribeChange();
      clearInterval(watch);
      await reconciler.stop();
    },
  });
}
