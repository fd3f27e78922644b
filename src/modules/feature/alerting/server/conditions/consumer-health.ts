// consumer-health: a queue's consumer-health verdict is one the rule names (default STALLED). The verdicts are the
// ones the metrics module keeps for the fleet (the same evaluation as the consumer-health screen and API), asked of
// metrics' entry. Alerting only `uses` metrics: with metrics off or not installed the condition judges nothing, and
// metrics' code is not even loaded.
import { z } from 'zod';
import { NEEDS_ATTENTION, isVerdict } from '@/base/consumer-verdicts.ts';
import type { AlertCondition, ConditionResult } from '../condition.ts';

const consumerHealthParams = z.object({
  verdicts: z
    .array(z.string().regex(/^[A-Z_]+$/, 'a verdict such as STALLED or NO_CONSUMERS'))
    .min(1)
    .default(['STALLED'])
    .describe(`The verdicts that fire (${NEEDS_ATTENTION.join(', ')})`),
});

export const consumerHealth: AlertCondition = {
  params: consumerHealthParams,
  async evaluate(context) {
    const params = consumerHealthParams.parse(context.params);
    if (!context.registry.isEnabled('metrics')) return [];
    const wanted = [...new Set(params.verdicts)].sort();
    // Only the queues with a wanted verdict (few, where a fleet has thousands of queues): a queue whose verdict
    // changed is no longer answered, which resolves its alert.
    const verdicts = await context.once(`queue-verdicts:${wanted.join(',')}`, async () => {
      const known = wanted.filter(isVerdict);
      const metrics = await import('@/modules/feature/metrics/index.ts');
      return known.length === 0
        ? new Map<string, string>()
        : metrics.storedVerdictsOf(context.db, context.clusterId, { verdicts: known });
    });
    const results: ConditionResult[] = [];
    for (const queueName of verdicts.keys()) {
      if (context.matches(queueName)) results.push({ subject: queueName, value: 1, firing: true });
    }
    return results;
  },
};
