// The metrics API: GET /api/v1/clusters/{clusterId}/metrics/queue — one queue's depth, consumers, in-delivery and
// in/out/expired rates per node over a range, at most `points` buckets, from the scrape's metric_sample.
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { readNodeSeries, readQueueSeries } from '@/modules/platform/scrape/read/index.ts';
import { pageOf, ProblemError } from '@/modules/kernel/core/index.ts';
import { VERDICTS, VERDICTS_WORST_FIRST, type Verdict } from '@/base/consumer-verdicts.ts';
import { consumerHealthOf } from './consumer-health-read.ts';
import {
  clusterSeriesInput,
  clusterSeriesOutput,
  consumerHealthInput,
  consumerHealthOutput,
  queueSeriesInput,
  queueSeriesOutput,
  rangeOf,
} from './metrics.schema.ts';

const procedure = moduleProcedure('metrics');

function tooManyBuckets(points: number): ProblemError {
  return new ProblemError({
    type: 'validation-failed',
    title: 'Too many buckets',
    status: 400,
    detail: `That step makes ${String(points)} buckets of the range; at most 1,000: take a longer step or a shorter range.`,
  });
}

export const metricsRouter = router({
  consumerHealth: procedure({ clusterPermission: 'metric:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/consumer-health',
        tags: ['metrics'],
        summary: 'Why each queue’s backlog is (not) draining: one verdict per queue with its evidence and advice',
      },
    })
    .input(consumerHealthInput)
    .output(consumerHealthOutput)
    .query(async ({ ctx, input }) => {
      const { windowMs, items } = await consumerHealthOf(ctx.runtime, input.clusterId.toLowerCase());
      const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
      for (const item of items) counts[item.verdict] += 1;
      const wanted = new Set((input.verdict ?? '').split(',').filter(Boolean));
      const needle = input.q?.toLowerCase();
      const matching = items.filter(
        (item) =>
          (wanted.size === 0 || wanted.has(item.verdict)) &&
          (!input.queue || item.queueName === input.queue) &&
          (!needle || `${item.queueName} ${item.address}`.toLowerCase().includes(needle)),
      );
      const descending = input.sort.startsWith('-');
      const field = descending ? input.sort.slice(1) : input.sort;
      const compare = (a: (typeof items)[number], b: (typeof items)[number]) =>
        field === 'queueName'
          ? a.queueName.localeCompare(b.queueName)
          : field === 'depth'
            ? a.evidence.depth - b.evidence.depth
            : VERDICTS_WORST_FIRST.indexOf(a.verdict) - VERDICTS_WORST_FIRST.indexOf(b.verdict) ||
              b.evidence.depth - a.evidence.depth;
      matching.sort((a, b) => (descending ? -compare(a, b) : compare(a, b)));
      const start = (input.page - 1) * input.pageSize;
      return {
        ...pageOf(matching.slice(start, start + input.pageSize), matching.length, input.page, input.pageSize),
        windowMs,
        counts,
      };
    }),

  queue: procedure({ clusterPermission: 'metric:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/metrics/queue',
        tags: ['metrics'],
        summary: 'A queue’s metric series per node: depth, consumers, in-delivery and rates, downsampled',
      },
    })
    .input(queueSeriesInput)
    .output(queueSeriesOutput)
    .query(async ({ ctx, input }) => {
      const { from, to, points } = rangeOf(input);
      if (points > 1_000) throw tooManyBuckets(points);
      const series = await readQueueSeries(ctx.runtime.db, {
        clusterId: input.clusterId.toLowerCase(),
        queueName: input.queue,
        from,
        to,
        points,
      });
      return { queue: input.queue, from: from.toISOString(), to: to.toISOString(), ...series };
    }),

  cluster: procedure({ clusterPermission: 'metric:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/metrics/cluster',
        tags: ['metrics'],
        summary: 'The cluster’s totals over its queues per node and in total: depth, consumers, rates, downsampled',
      },
    })
    .input(clusterSeriesInput)
    .output(clusterSeriesOutput)
    .query(async ({ ctx, input }) => {
      const { from, to, points } = rangeOf(input);
      if (points > 1_000) throw tooManyBuckets(points);
      const series = await readNodeSeries(ctx.runtime.db, {
        clusterId: input.clusterId.toLowerCase(),
        ...(input.nodeId ? { nodeId: input.nodeId.toLowerCase() } : {}),
        from,
        to,
        points,
      });
      return { from: from.toISOString(), to: to.toISOString(), ...series };
    }),
});
