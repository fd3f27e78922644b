// The `ha` health indicator: DOWN, with the cluster and logical node named, while a corroborated split-brain lasts
// (two members of one pair both serving is critical for the fleet). Read from what the worker persisted, so the
// web process that answers /actuator/health/flotilla sees it.
import type { HealthComponent, HealthContext } from '@/modules/kernel/plugin/index.ts';
import { listSplitBrains } from './split-brain-query.ts';

export async function check(context: HealthContext): Promise<HealthComponent> {
  const splitBrains = await listSplitBrains(context.prisma);
  if (splitBrains.length === 0) return { status: 'UP', details: { splitBrains: [] } };
  return {
    status: 'DOWN',
    details: {
      severity: 'critical',
      splitBrains: splitBrains.map((split) => ({
        ...split,
        message: `split-brain in cluster ${split.cluster}: logical node ${split.logicalNode} has ${split.nodes.length} active members (${split.nodes.map((node) => node.name).join(', ')})`,
      })),
    },
  };
}
