// The diverts API: a cluster's diverts merged across its nodes (which nodes have each, which lack it), and divert
// create and remove on every node through the broker command sequence.
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { commandResultSchema } from '@/modules/platform/commands/index.ts';
import { readRoutingViews } from '../live/read-routing.ts';
import { createDivert, removeDivert } from './divert-actions.ts';
import { divertRows, pageDivertRows } from './divert-rows.ts';
import { createDivertInput, listDivertsInput, listDivertsOutput, removeDivertInput } from './diverts.schema.ts';

const procedure = moduleProcedure('routing');
const routingRead = { clusterPermission: 'routing:read' } as const;
const divertWrite = { clusterPermission: 'divert:write' } as const;
const tags = ['routing'];

export const divertsRouter = router({
  diverts: router({
    list: procedure(routingRead)
      .meta({
        openapi: {
          method: 'GET',
          path: '/clusters/{clusterId}/diverts',
          tags,
          summary:
            'The cluster’s diverts merged across its nodes: each with the nodes that have it and those lacking it',
        },
      })
      .input(listDivertsInput)
      .output(listDivertsOutput)
      .query(async ({ ctx, input }) => {
        const read = await readRoutingViews(ctx.runtime, input.clusterId.toLowerCase());
        if (!read)
          throw new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
        return {
          ...pageDivertRows(divertRows(read.views), input),
          readAt: read.readAt.toISOString(),
          nodes: read.views.map((view) => ({ nodeId: view.nodeId, nodeName: view.nodeName })),
          failures: read.failures.map(({ nodeId, nodeName, failure }) => ({
            nodeId,
            nodeName,
            kind: failure.kind,
            message: failure.message,
            advice: failure.advice,
          })),
        };
      }),

    create: procedure(divertWrite)
      .meta({
        openapi: {
          method: 'POST',
          path: '/clusters/{clusterId}/diverts',
          tags,
          summary: 'Create a divert on every node (a node that has it already is left alone)',
        },
      })
      .input(createDivertInput)
      .output(commandResultSchema)
      .mutation(({ ctx, input }) =>
        createDivert(ctx.runtime, ctx.request, {
          ...input,
          clusterId: input.clusterId.toLowerCase(),
          filter: input.filter || null,
        }),
      ),

    remove: procedure(divertWrite)
      .meta({
        openapi: {
          method: 'DELETE',
          path: '/clusters/{clusterId}/diverts/{divert}',
          tags,
          summary: 'Remove a divert from every node that has it',
        },
      })
      .input(removeDivertInput)
      .output(commandResultSchema)
      .mutation(({ ctx, input }) =>
        removeDivert(ctx.runtime, ctx.request, {
          clusterId: input.clusterId.toLowerCase(),
          name: input.divert,
          dryRun: input.dryRun,
        }),
      ),
  }),
});
