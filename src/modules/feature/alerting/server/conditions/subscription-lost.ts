// subscription-lost: a serving node's notification subscription (held by the worker that owns the cluster, which
// records its state at the end of every tier-A pass) is not established. The rule's for-duration says for how long
// that must last before the alert fires; the value is how long the current state has lasted, in seconds.
import { z } from 'zod';
import { listPolledNodes, loadStoredSubscriptions } from '@/modules/platform/clusters/index.ts';
import type { AlertCondition, ConditionResult } from '../condition.ts';

export const subscriptionLost: AlertCondition = {
  params: z.object({}),
  async evaluate(context) {
    const [subscriptions, nodes] = await Promise.all([
      context.once('node-subscriptions', () => loadStoredSubscriptions(context.prisma, context.clusterId)),
      context.once('polled-nodes', () => listPolledNodes(context.prisma, context.clusterId)),
    ]);
    const results: ConditionResult[] = [];
    for (const node of nodes) {
      const subscription = subscriptions.get(node.id);
      // Only serving nodes hold a subscription; a node without a row is not judged.
      if (!subscription) continue;
      const since = subscription.since?.getTime() ?? context.now.getTime();
      results.push({
        subject: node.managementUrl,
        value: Math.max(0, Math.round((context.now.getTime() - since) / 1_000)),
        firing: subscription.state !== 'established',
      });
    }
    return results;
  },
};
