// brokerconfig's alert condition (contributed to alerting's `alerting.conditions`): per node, how many declared items
// drifted or are missing in the latest drift evaluation. One read per cluster evaluation, shared by every rule.
import { z } from 'zod';
import type { AlertCondition, ConditionResult } from '@/modules/feature/alerting/module.ts';

const params = z.object({
  threshold: z.number().int().min(0).default(0).describe('Fires when more items than this drifted on a node'),
});

export const configDrift: AlertCondition = {
  params,
  async evaluate(context) {
    const { threshold } = params.parse(context.params);
    // One read per cluster evaluation: items per node and state.
    const rows = await context.once('config-drift', () =>
      context.prisma.configDrift.groupBy({
        by: ['nodeName', 'state'],
        where: { clusterId: context.clusterId },
        _count: { _all: true },
      }),
    );
    const counts = new Map<string, number>();
    for (const row of rows) {
      const drifted = row.state === 'DRIFTED' || row.state === 'MISSING' ? row._count._all : 0;
      counts.set(row.nodeName, (counts.get(row.nodeName) ?? 0) + drifted);
    }
    const results: ConditionResult[] = [];
    for (const [nodeName, count] of context.select([...counts], ([name]) => name))
      results.push({ subject: nodeName, value: count, firing: count > threshold });
    return results;
  },
};
