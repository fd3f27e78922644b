// The diverts API: a cluster's diverts merged across its nodes (which nodes have each, which lack it; names and
// filters through the content policy, divert-list.ts), and divert create and remove on every node through the broker
// command sequence.
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { commandResultSchema } from '@/modules/platform/commands/index.ts';
import { createDivert, removeDivert } from './divert-actions.ts';
import { listClusterDiverts } from './divert-list.ts';
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
            'The cluster’s diverts merged across its nodes: each with the nodes that have it and those lacking it; names, addresses and filters through the content policy',
        },
      })
      .input(listDivertsInput)
      .output(listDivertsOutput)
      .query(({ ctx, input }) => listClusterDiverts(ctx, input)),

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
