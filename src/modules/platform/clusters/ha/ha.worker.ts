// The worker service of HA (stage `subscriptions`): feeds tier-A completions to the reconciler in order, follows
// removed clusters and nodes (the reconciler lets go of their subscriptions, then held-resources.ts ends every
// connection, limiter and health state the worker still holds for them), and on stop closes the subscriptions
// before the native pools close (the next stage).
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { loadBrokerEventDispatcher } from '@/modules/platform/broker/index.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';
import { clusterOwnershipOf } from './cluster-ownership.ts';
import { HaReconciler } from './ha-reconciler.ts';
import { HeldResources } from './held-resources.ts';

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
  const held = new HeldResources(context.prisma);
  await held.refresh();
  const unsubscribeChange = context.notifications.subscribe('ClusterChanged', async (changed) => {
    await (changed.change === 'removed'
      ? reconciler.clusterRemoved(changed.clusterId)
      : reconciler.clusterUpdated(changed.clusterId));
    await held.refresh();
  });
  const unsubscribeRegistered = context.notifications.subscribe('ClusterRegistered', () => held.refresh());
  const stopFollowingBus = context.bus.onReconnect(() => void held.refresh());
  const watch = setInterval(() => void reconciler.refreshSubscriptionStates(), SUBSCRIPTION_WATCH_MS);
  watch.unref();
  return {
    async stop() {
      unsubscribeTier();
      unsubscribeChange();
      unsubscribeRegistered();
      stopFollowingBus();
      clearInterval(watch);
      await reconciler.stop();
      // The subscriptions are closed: what the consumers still hold is all there will be.
      await dispatcher.stop();
      await shared.detach();
    },
  };
}
