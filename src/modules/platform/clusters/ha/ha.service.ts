// The worker service of HA (stage `subscriptions`): feeds tier-A completions to the reconciler in order, follows
// removed clusters, and on stop closes the subscriptions before the native pools close (the next stage).
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { loadBrokerEventDispatcher } from '@/modules/platform/broker/index.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';
import { clusterOwnershipOf } from './cluster-ownership.ts';
import { HaReconciler } from './ha-reconciler.ts';

/** How often the subscription cache is compared with what the database holds. */
const SUBSCRIPTION_WATCH_MS = 1_000;

export async function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const dispatcher = await loadBrokerEventDispatcher(context.registry, context);
  const reconciler = new HaReconciler({
    instanceId: context.instanceId,
    prisma: context.prisma,
    pool: context.pool,
    ownership: shared.ownership,
    keys: processKeys,
    publishSignal: context.publishSignal,
    onBrokerEvent: dispatcher.handle,
    servingChanged: (clusterId) => context.notifications.publish('ClusterServingChanged', { clusterId }),
  });
  const unsubscribeTier = context.notifications.subscribe('ScrapeTierCompleted', (completed) =>
    completed.tier === 'A' ? reconciler.tierACompleted(completed.clusterId) : undefined,
  );
  const unsubscribeChange = context.notifications.subscribe('ClusterChanged', (changed) =>
    changed.change === 'removed' ? reconciler.clusterRemoved(changed.clusterId) : undefined,
  );
  const watch = setInterval(() => void reconciler.refreshSubscriptionStates(), SUBSCRIPTION_WATCH_MS);
  watch.unref();
  return {
    async stop() {
      unsubscribeTier();
      unsubscribeChange();
      clearInterval(watch);
      await reconciler.stop();
      // The subscriptions are closed: what the consumers still hold is all there will be.
      await dispatcher.stop();
      await shared.detach();
    },
  };
}
