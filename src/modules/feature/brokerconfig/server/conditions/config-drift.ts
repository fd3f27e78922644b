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
    const rows = await context.once('config-drift', () =>
      context.prisma.configDrift.groupBy({
        by: ['nodeName'],
        where: { clusterId: context.clusterId },
        _count: { _all: true },
      }),
    );
    const drifted = await context.once('config-drifted', () =>
      context.prisma.configDrift.groupBy({
        by: ['nodeName'],
        where: { clusterId: context.clusterId, state: { in: ['DRIFTED', 'MISSING'] } },
        _count: { _all: true },
      }),
    );
    const counts = new Map(drifted.map((row) => [row.nodeName, row._count._all]));
    const results: ConditionResult[] = [];
    for (const row of context.select(rows, (one) => one.nodeName)) {
      const count = counts.get(row.nodeName) ?? 0;
      results.push({ subject: row.nodeName, value: count, firing: count > threshold });
    }
    return results;
  },
};
