// The node edit and removal procedures, merged into the clusters router; both go through the cluster access guard
// and publish ClusterChanged after commit so every process drops what it held for the node's old URLs.
import { moduleProcedure } from '@/modules/kernel/access/index.ts';
import { readManagementLimits } from '@/modules/platform/broker/index.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';
import { allowedNetworksOf } from '../registration/allowed-networks.ts';
import { mutationOutput } from '../clusters.schema.ts';
import { removeNode, updateNode } from './node-commands.ts';
import { removeNodeInput, updateNodeInput, updateNodeOutput } from './nodes.schema.ts';

const procedure = moduleProcedure('clusters');
const tags = ['clusters'];

export const nodeProcedures = {
  updateNode: procedure({ clusterPermission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/clusters/{clusterId}/nodes/{nodeId}',
        tags,
        summary:
          "Give a node its management and AMQP URLs in place: probed (the cluster's credentials, NodeID, topology) before it is saved",
      },
    })
    .input(updateNodeInput)
    .output(updateNodeOutput)
    .mutation(async ({ ctx, input }) => {
      const { prisma, settings, notifications } = ctx.runtime;
      const probe = {
        limits: readManagementLimits((key) => settings.value(key)),
        allowedNetworks: allowedNetworksOf(settings),
      };
      const result = await updateNode(prisma, ctx.request, processKeys(), probe, input);
      if (!input.dryRun && result.changed.length > 0) {
        await notifications.publish('ClusterChanged', { clusterId: input.clusterId.toLowerCase(), change: 'updated' });
      }
      return result;
    }),

  removeNode: procedure({ clusterPermission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/clusters/{clusterId}/nodes/{nodeId}',
        tags,
        summary: 'Remove one node of a cluster (not its last): its polls, subscription and samples go with it',
      },
    })
    .input(removeNodeInput)
    .output(mutationOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await removeNode(ctx.runtime.prisma, ctx.request, input);
      if (!input.dryRun) {
        await ctx.runtime.notifications.publish('ClusterChanged', {
          clusterId: input.clusterId.toLowerCase(),
          change: 'updated',
        });
      }
      return result;
    }),
};
