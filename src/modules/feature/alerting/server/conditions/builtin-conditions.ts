// Node down from the clusters' last management polls and split-brain from the clusters' persisted verdict, read
// through the clusters module's public entry. (The queue conditions and the others have a file each beside this.)
import { z } from 'zod';
import { listPolledNodes, visibleClusters } from '@/modules/platform/clusters/index.ts';
import type { AlertCondition } from '../condition.ts';

const noParams = z.object({});

export const nodeDown: AlertCondition = {
  params: noParams,
  async evaluate(context) {
    const nodes = await context.once('polled-nodes', () => listPolledNodes(context.prisma, context.clusterId));
    return nodes.map((node) => {
      const failing =
        node.lastFailureAt !== null && (node.lastSuccessAt === null || node.lastFailureAt > node.lastSuccessAt);
      return { subject: node.managementUrl, value: failing ? 1 : 0, firing: failing };
    });
  },
};

/** A grant reaching every cluster: the worker judges every cluster it owns, on nobody's behalf. */
const EVERY_CLUSTER = [{ scope: { kind: 'GLOBAL' as const }, permissions: ['cluster:read'] }];

export const splitBrain: AlertCondition = {
  params: noParams,
  async evaluate(context) {
    const clusters = await context.once('clusters', () => visibleClusters(context.prisma, EVERY_CLUSTER));
    const cluster = clusters.find((candidate) => candidate.id === context.clusterId);
    if (!cluster) return [];
    const since = cluster.splitBrainSince;
    return [{ subject: 'cluster', value: since ? 1 : 0, firing: since !== null }];
  },
};
