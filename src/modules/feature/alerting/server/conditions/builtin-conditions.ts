// The conditions alerting contributes itself: queue thresholds from the scrape's queue totals and window rates,
// node down from the clusters' last management polls, split-brain from the clusters' persisted verdict. Each reads
// only the public entries of the scrape and clusters modules.
import { z } from 'zod';
import { listPolledNodes, visibleClusters } from '@/modules/platform/clusters/index.ts';
import { readQueueHealthInputs } from '@/modules/platform/scrape/index.ts';
import type { AlertCondition, ConditionResult } from '../condition.ts';

const queueThresholdParams = z.object({
  metric: z.enum(['depth', 'consumers', 'inRate', 'outRate']).describe('The queue number judged'),
  op: z.enum(['>', '>=', '<', '<=']).default('>'),
  threshold: z.number(),
  windowSeconds: z
    .number()
    .int()
    .min(60)
    .max(86_400)
    .default(300)
    .describe('The window the in and out rates are measured over'),
});

const compare = (value: number, op: '>' | '>=' | '<' | '<=', threshold: number) =>
  op === '>'
    ? value > threshold
    : op === '>='
      ? value >= threshold
      : op === '<'
        ? value < threshold
        : value <= threshold;

export const queueThreshold: AlertCondition = {
  params: queueThresholdParams,
  async evaluate(context) {
    const params = queueThresholdParams.parse(context.params);
    const from = new Date(context.now.getTime() - params.windowSeconds * 1_000);
    const inputs = await context.once(`queue-health-inputs:${params.windowSeconds}`, () =>
      readQueueHealthInputs(context.db, context.prisma, context.clusterId, { from, to: context.now }),
    );
    const results: ConditionResult[] = [];
    for (const queue of inputs) {
      if (!context.matches(queue.queueName)) continue;
      const value = queue[params.metric];
      // A rate over fewer than two samples is unknown: neither firing nor resolving on it would be honest.
      if (value === null) continue;
      results.push({ subject: queue.queueName, value, firing: compare(value, params.op, params.threshold) });
    }
    return results;
  },
};

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
