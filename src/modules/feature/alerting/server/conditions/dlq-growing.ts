// dlq-growing: a dead-letter queue whose depth rose over the window. Which queues are dead-letter (or expiry) queues
// is what the scrape read from the brokers' address settings (readDeadLetterQueues: never inferred from names); the
// growth is the depth at the end of the window minus the depth at its start, from the scrape's per-minute rollup,
// read for those queues only (readQueueGrowth), so a built-in rule on every cluster costs two small statements.
import { z } from 'zod';
import { readDeadLetterQueues, readQueueGrowth } from '@/modules/platform/scrape/read/index.ts';
import type { AlertCondition, ConditionResult } from '../condition.ts';
import { growthOf } from './queue-numbers.ts';

const dlqGrowingParams = z.object({
  windowSeconds: z.number().int().min(60).max(86_400).default(300).describe('The window the growth is measured over'),
  minIncrease: z.number().int().min(1).default(1).describe('Fires when the depth rose by at least this much'),
  kinds: z
    .array(z.enum(['dead-letter', 'expiry']))
    .min(1)
    .default(['dead-letter'])
    .describe('Which queues count: dead-letter, expiry or both (as the address settings name them)'),
});

const PAGE = 5_000;

/** The cluster's dead-letter and expiry queues, name → kind, every page. */
async function deadLetterKinds(context: Parameters<AlertCondition['evaluate']>[0]) {
  const kinds = new Map<string, string | null>();
  for (let page = 1; ; page += 1) {
    const { items, total } = await readDeadLetterQueues(context.db, [context.clusterId], {
      sort: { field: 'queueName', direction: 'asc' },
      page,
      pageSize: PAGE,
    });
    for (const item of items) kinds.set(item.queueName, item.kind);
    if (items.length === 0 || page * PAGE >= total) return kinds;
  }
}

export const dlqGrowing: AlertCondition = {
  params: dlqGrowingParams,
  async evaluate(context) {
    const params = dlqGrowingParams.parse(context.params);
    const kinds = await context.once('dead-letter-kinds', () => deadLetterKinds(context));
    const from = new Date(context.now.getTime() - params.windowSeconds * 1_000);
    // Every dead-letter and expiry queue in one read, shared by the rules with the same window.
    const inputs = await context.once(`dead-letter-growth:${params.windowSeconds}`, () =>
      readQueueGrowth(context.db, context.clusterId, [...kinds.keys()], { from, to: context.now }),
    );
    const results: ConditionResult[] = [];
    for (const queue of inputs) {
      const kind = kinds.get(queue.queueName);
      if (kind === undefined || !params.kinds.some((wanted) => wanted === kind)) continue;
      if (!context.matches(queue.queueName)) continue;
      const growth = growthOf(queue);
      if (growth === null) continue;
      results.push({ subject: queue.queueName, value: growth, firing: growth >= params.minIncrease });
    }
    return results;
  },
};
