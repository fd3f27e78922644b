// Read API of the scrape under /api/v1/scrape: per node per tier the last sweep with staleness, and the per-node
// queue rows of a cluster (each flagged stale when its node's sweeps are).
import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { listQuerySchema, listResultSchema, pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import { readQueueRows, type QueueSortField } from '../read/node-queue-rows.ts';
import { queueMetricsShape } from '../read/queue-metrics.schema.ts';
import { readSweeps } from '../read/sweeps.ts';

const procedure = moduleProcedure('scrape');
const clusterRead = { clusterPermission: 'cluster:read' } as const;
const nullableTime = z.string().nullable();

const sweepView = z.object({
  nodeId: z.string(),
  managementUrl: z.string(),
  tier: z.enum(['A', 'B', 'C']),
  intervalMs: z.number().int().nullable(),
  stale: z.boolean().describe('The last successful sweep is more than two intervals old (or there is none)'),
  instanceId: z.string().nullable().describe('The instance whose worker ran the last sweep'),
  lastStartedAt: nullableTime,
  lastCompletedAt: nullableTime,
  lastFailedAt: nullableTime,
  lastDurationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  rowsPersisted: z.number().int(),
  listedTotal: z.number().int().nullable(),
  limiterWaitMs: z.number().int().nullable(),
});

const queueRowView = z.object({
  nodeId: z.string(),
  address: z.string(),
  queueName: z.string(),
  routingType: z.string(),
  ...queueMetricsShape,
  paused: z.boolean().nullable(),
  scrapedAt: z.string(),
  seenIn: z.string(),
  stale: z.boolean(),
});

export const scrapeRouter = router({
  sweeps: procedure(clusterRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/scrape/clusters/{clusterId}/sweeps',
        tags: ['scrape'],
        summary: 'Per node and tier (A, B, C) the last sweep, its error and whether the node is stale',
      },
    })
    .input(z.object({ clusterId: z.uuid() }))
    .output(z.object({ items: z.array(sweepView) }))
    .query(async ({ ctx, input }) => ({
      items: (await readSweeps(ctx.runtime.prisma, input.clusterId)).map(({ clusterId: _clusterId, ...view }) => view),
    })),

  queues: procedure(clusterRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/scrape/clusters/{clusterId}/queues',
        tags: ['scrape'],
        summary: 'The scraped queue rows of a cluster, one per node and queue, each flagged stale with its node',
      },
    })
    .input(
      listQuerySchema(['queueName', 'messageCount', 'consumerCount', 'scrapedAt'], 'queueName').extend({
        clusterId: z.uuid(),
        nodeId: z.uuid().optional().describe('Only this node’s rows'),
      }),
    )
    .output(listResultSchema(queueRowView))
    .query(async ({ ctx, input }) => {
      const { items, total } = await readQueueRows(ctx.runtime.prisma, {
        clusterId: input.clusterId,
        ...(input.nodeId ? { nodeId: input.nodeId } : {}),
        ...(input.q ? { q: input.q } : {}),
        sort: parseSort<QueueSortField>(input.sort),
        page: input.page,
        pageSize: input.pageSize,
      });
      return pageOf(items, total, input.page, input.pageSize);
    }),
});
