// Node down from the clusters' last management polls and split-brain from the clusters' persisted verdict, read
// through the clusters module's public entry. (The queue conditions and the others have a file each beside this.)
import { z } from 'zod';
import { listPolledNodes, splitBrainOf } from '@/modules/platform/clusters/index.ts';
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

export const splitBrain: AlertCondition = {
  params: noParams,
  async evaluate(context) {
    const ongoing = await splitBrainOf(context.prisma, context.clusterId);
    return [{ subject: 'cluster', value: ongoing ? 1 : 0, firing: ongoing }];
  },
};
