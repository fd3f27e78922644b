// The queue-threshold condition: one queue number against a threshold. Depth and consumers come from the scrape's
// queue totals (readQueueCounts), the window's in and out rates from the totals and the per-minute rollup
// (readQueueHealthInputs), growth is the depth at
// the end of the window minus the depth at its start (same read), and the age of the oldest message is the scrape's
// lower bound from the counters (readQueueOldestAges), read only when a rule asks for it.
import { z } from 'zod';
import { readQueueCounts, readQueueHealthInputs, readQueueOldestAges } from '@/modules/platform/scrape/read/index.ts';
import type { AlertCondition, ConditionResult } from '../condition.ts';
import { compare, growthOf } from './queue-numbers.ts';

const queueThresholdParams = z.object({
  metric: z
    .enum(['depth', 'consumers', 'inRate', 'outRate', 'growth', 'oldestAge'])
    .describe('The queue number judged: growth is the depth increase over the window, oldestAge in seconds'),
  op: z.enum(['>', '>=', '<', '<=']).default('>'),
  threshold: z.number(),
  windowSeconds: z
    .number()
    .int()
    .min(60)
    .max(86_400)
    .default(300)
    .describe('The window the in and out rates and the growth are measured over'),
});

/** The oldest message's age is read back this far past the threshold, so an age above it is always seen. */
const AGE_MARGIN_SECONDS = 120;
/** The scrape keeps seven days of minutes; a longer look-back would read nothing more. */
const MAX_AGE_LOOKBACK_SECONDS = 7 * 86_400;

async function oldestAges(context: Parameters<AlertCondition['evaluate']>[0], threshold: number) {
  const lookback = Math.min(MAX_AGE_LOOKBACK_SECONDS, Math.max(60, Math.ceil(threshold)) + AGE_MARGIN_SECONDS);
  const from = new Date(context.now.getTime() - lookback * 1_000);
  const ages = await context.once(`queue-oldest-ages:${lookback}`, () =>
    readQueueOldestAges(context.db, context.clusterId, { from, to: context.now }),
  );
  return context
    .select(ages, (queue) => queue.queueName)
    .map((queue) => ({ queueName: queue.queueName, value: queue.ageSeconds }));
}

export const queueThreshold: AlertCondition = {
  params: queueThresholdParams,
  async evaluate(context) {
    // Parsed by the evaluator with this schema already (ConditionContext.params).
    const params = context.params as z.infer<typeof queueThresholdParams>;
    let values: { queueName: string; value: number | null }[];
    if (params.metric === 'oldestAge') {
      values = await oldestAges(context, params.threshold);
    } else if (params.metric === 'depth' || params.metric === 'consumers') {
      // Numbers of now need only the totals, not the window the rates and growth take.
      const counts = await context.once('queue-counts', () => readQueueCounts(context.db, context.clusterId));
      const metric = params.metric;
      values = context
        .select(counts, (queue) => queue.queueName)
        .map((queue) => ({ queueName: queue.queueName, value: queue[metric] }));
    } else {
      const from = new Date(context.now.getTime() - params.windowSeconds * 1_000);
      const inputs = await context.once(`queue-health-inputs:${params.windowSeconds}`, () =>
        readQueueHealthInputs(context.db, context.prisma, context.clusterId, { from, to: context.now }),
      );
      const metric = params.metric;
      values = context
        .select(inputs, (queue) => queue.queueName)
        .map((queue) => ({
          queueName: queue.queueName,
          value: metric === 'growth' ? growthOf(queue) : queue[metric],
        }));
    }
    const results: ConditionResult[] = [];
    // `values` holds only the queues under the rule's pattern (context.select).
    for (const { queueName, value } of values) {
      // A rate or growth over fewer than two samples is unknown: neither firing nor resolving on it would be honest.
      if (value === null) continue;
      results.push({ subject: queueName, value, firing: compare(value, params.op, params.threshold) });
    }
    return results;
  },
};
