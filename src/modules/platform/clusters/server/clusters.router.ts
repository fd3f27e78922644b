// The clusters API: register (with probe and dry run), list, get, edit, remove, nodes, capabilities, rediscover,
// and a node's edit and removal (nodes/).
// Cluster-scoped procedures go through the cluster access guard (one 404 for unknown and unreachable clusters).
import { randomUUID } from 'node:crypto';
import { allowedNetworksOf } from './registration/allowed-networks.ts';
import { requireEnvironmentMove } from './environment-move.ts';
import { CLUSTER_NOT_FOUND, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { recordAuditEvent } from '@/modules/kernel/audit/index.ts';
import { readManagementLimits } from '@/modules/platform/broker/index.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';
import {
  capabilitiesOutput,
  clusterDetailSchema,
  clusterIdInput,
  clusterActionInput,
  listClustersInput,
  listClustersOutput,
  mutationOutput,
  nodesOutput,
  registerInput,
  registerOutput,
  updateClusterInput,
} from './clusters.schema.ts';
import { getCluster, listCapabilities, listClusters, listNodes } from './cluster-query.ts';
import {
  checksFailedProblem,
  nameTakenProblem,
  deleteCluster,
  rediscoverCluster,
  updateCluster,
} from './cluster-commands.ts';
import { logicalNodes } from './registration/discovery.ts';
import { probeCluster } from './registration/probe-cluster.ts';
import { clearTlsOf, sealTls } from './credentials/cluster-tls.ts';
import { registrationParameters, saveRegistration } from './registration/save-registration.ts';
import { probedNodeView } from './probe-view.ts';
import { nodeProcedures } from './nodes/nodes.procedures.ts';

const procedure = moduleProcedure('clusters');
const tags = ['clusters'];

export const clustersRouter = router({
  ...nodeProcedures,

  register: procedure({ permission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters',
        tags,
        summary: 'Register a cluster from a seed node: probe, discover its nodes, run the registration checks, save',
      },
    })
    .input(registerInput)
    .output(registerOutput)
    .mutation(async ({ ctx, input }) => {
      const { prisma, registry, settings, notifications } = ctx.runtime;
      if (await prisma.cluster.findFirst({ where: { name: { equals: input.name, mode: 'insensitive' } } })) {
        throw nameTakenProblem(input.name);
      }
      // The id comes first: the client certificate is sealed bound to it. A bad certificate or key is a 400 before
      // any broker is called.
      const clusterId = randomUUID();
      const storedTls = sealTls(processKeys(), clusterId, input.tls);
      const result = await probeCluster(
        registry,
        readManagementLimits((key) => settings.value(key)),
        { ...input, purpose: 'register', tls: clearTlsOf(input.tls) },
        allowedNetworksOf(settings),
      );
      const answer = {
        checks: result.checks,
        nodes: result.probe.nodes.map(probedNodeView),
        logicalNodeCount: logicalNodes(result.probe.nodes).length,
      };
      if (result.refused) {
        await recordAuditEvent(
          prisma,
          ctx.request,
          {
            action: 'cluster.register',
            target: input.name,
            parameters: registrationParameters(input, result),
            dryRun: input.dryRun,
          },
          {
            outcome: 'REFUSED',
            error: result.checks.find((check) => check.blocking && check.status === 'fail')?.detail,
          },
        );
        throw checksFailedProblem(result, answer);
      }
      const saved = await saveRegistration(prisma, ctx.request, processKeys(), input, result, input.dryRun, {
        id: clusterId,
        tls: storedTls,
      });
      if (!input.dryRun) {
        await notifications.publish('ClusterRegistered', {
          clusterId: saved.clusterId,
          name: input.name,
          environmentId: saved.environmentId,
        });
      }
      return { clusterId: input.dryRun ? null : saved.clusterId, dryRun: input.dryRun, ...answer };
    }),

  list: procedure('authenticated')
    .meta({ openapi: { method: 'GET', path: '/clusters', tags, summary: 'Clusters you can see' } })
    .input(listClustersInput)
    .output(listClustersOutput)
    .query(async ({ ctx, input }) => listClusters(ctx.runtime.prisma, await ctx.grants(), input)),

  get: procedure({ clusterPermission: 'cluster:read' })
    .meta({ openapi: { method: 'GET', path: '/clusters/{clusterId}', tags, summary: 'One cluster' } })
    .input(clusterIdInput)
    .output(clusterDetailSchema)
    .query(async ({ ctx, input }) => {
      const cluster = await getCluster(ctx.runtime.prisma, input.clusterId.toLowerCase());
      if (!cluster) throw new ProblemError(CLUSTER_NOT_FOUND);
      return cluster;
    }),

  nodes: procedure({ clusterPermission: 'cluster:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/nodes',
        tags,
        summary: 'Nodes with role, logical node, polled HA state and last success/failure',
      },
    })
    .input(clusterIdInput)
    .output(nodesOutput)
    .query(async ({ ctx, input }) => {
      const items = await listNodes(ctx.runtime.prisma, input.clusterId.toLowerCase());
      return { items, total: items.length };
    }),

  capabilities: procedure({ clusterPermission: 'cluster:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/capabilities',
        tags,
        summary: 'The capability ledger with the broker configuration that would change each answer',
      },
    })
    .input(clusterIdInput)
    .output(capabilitiesOutput)
    .query(async ({ ctx, input }) => {
      const items = await listCapabilities(ctx.runtime.prisma, input.clusterId.toLowerCase());
      return { items, total: items.length };
    }),

  update: procedure({ clusterPermission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/clusters/{clusterId}',
        tags,
        summary: 'Change name, environment, description, credentials (re-encrypted) or TLS',
      },
    })
    .input(updateClusterInput)
    .output(mutationOutput)
    .mutation(async ({ ctx, input }) => {
      if (input.environment !== undefined) {
        await requireEnvironmentMove(ctx.runtime.prisma, await ctx.grants(), {
          clusterId: input.clusterId,
          environment: input.environment,
        });
      }
      const result = await updateCluster(ctx.runtime.prisma, ctx.request, processKeys(), input);
      if (!input.dryRun && result.changed.length > 0) {
        await ctx.runtime.notifications.publish('ClusterChanged', { clusterId: result.id, change: 'updated' });
      }
      return result;
    }),

  remove: procedure({ clusterPermission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/clusters/{clusterId}',
        tags,
        summary: 'Remove a cluster with its nodes and capability ledger (audit rows keep its name)',
      },
    })
    .input(clusterActionInput)
    .output(mutationOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await deleteCluster(ctx.runtime.prisma, ctx.request, input);
      if (!input.dryRun) {
        await ctx.runtime.notifications.publish('ClusterChanged', { clusterId: result.id, change: 'removed' });
      }
      return result;
    }),

  rediscover: procedure({ clusterPermission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/rediscover',
        tags,
        summary:
          'Probe the cluster again from its nodes: add newly found nodes, refresh roles and the capability ledger',
      },
    })
    .input(clusterActionInput)
    .output(registerOutput)
    .mutation(async ({ ctx, input }) => {
      const { prisma, registry, settings, notifications } = ctx.runtime;
      const limits = readManagementLimits((key) => settings.value(key));
      const result = await rediscoverCluster(
        prisma,
        ctx.request,
        processKeys(),
        registry,
        limits,
        input,
        allowedNetworksOf(settings),
      );
      if (!input.dryRun)
        await notifications.publish('ClusterChanged', { clusterId: input.clusterId, change: 'updated' });
      return {
        clusterId: input.clusterId,
        dryRun: input.dryRun,
        checks: result.checks,
        nodes: result.probe.nodes.map(probedNodeView),
        logicalNodeCount: logicalNodes(result.probe.nodes).length,
      };
    }),
});
