// The queues API under /api/v1/clusters/{clusterId}/queues: the cross-node grid and one queue. Read from the
// scrape's queue_snapshot; no broker call.
import { ProblemError } from '../../../kernel/core/problem.ts';
import { pageOf, parseSort } from '../../../kernel/core/list-query.ts';
import { readQueueGrid, type QueueGridSortField } from '../../../platform/scrape/server/queue-grid.ts';
import { moduleProcedure, router } from '@/server/trpc/init.ts';
import { getQueueInput, listQueuesInput, listQueuesOutput, queueGridRowSchema } from './queues.schema.ts';

const procedure = moduleProcedure('queues');
const queueRead = { clusterPermission: 'queue:read' } as const;

export function queueNotFound(queueName: string): ProblemError {
  return new ProblemError({
    type: 'queue-not-found',
    title: 'Queue not found',
    status: 404,
    detail: `No node of this cluster has listed a queue named "${queueName}" (the scrape may not have seen it yet).`,
  });
}

export const queuesRouter = router({
  list: procedure(queueRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/queues',
        tags: ['queues'],
        summary: 'The queue grid: one row per queue with a cell per node, totals over logical nodes',
      },
    })
    .input(listQueuesInput)
    .output(listQueuesOutput)
    .query(async ({ ctx, input }) => {
      const { items, total } = await readQueueGrid(ctx.runtime.db, {
        clusterId: input.clusterId,
        ...(input.q ? { q: input.q } : {}),
        sort: parseSort<QueueGridSortField>(input.sort),
        page: input.page,
        pageSize: input.pageSize,
      });
      return pageOf(items, total, input.page, input.pageSize);
    }),

  get: procedure(queueRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/queues/{queueName}',
        tags: ['queues'],
        summary: 'One queue with its cell per node',
      },
    })
    .input(getQueueInput)
    .output(queueGridRowSchema)
    .query(async ({ ctx, input }) => {
      const { items } = await readQueueGrid(ctx.runtime.db, {
        clusterId: input.clusterId,
        queueName: input.queueName,
        sort: { field: 'address', direction: 'asc' },
        page: 1,
        pageSize: 1,
      });
      const [queue] = items;
      if (!queue) throw queueNotFound(input.queueName);
      return queue;
    }),
});
