// Where a broker command goes: one target per logical node, chosen from the polled serving state (a passive backup
// is never written to; during a split-brain the first serving member is taken and the other named in the audit),
// or the one node a message operation or a connection close names. Each target carries its management endpoint,
// how to reach it natively, and whether the worker's notification subscription of it is live (the native channel
// is used for browse and send only then).
import type { PrismaClient } from '@/base/db/database.ts';
import type { ManagementEndpoint, NativeEndpoint } from '@/modules/platform/broker/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';
import { nativeEndpointOf } from '../../ha/native-endpoint-of.ts';
import { loadLiveThroughTargets } from '../management-targets.ts';

interface CommandTarget {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly logicalNode: string;
  readonly endpoint: ManagementEndpoint;
  /** The node's native endpoint; throws with the reason when it has none (no AMQP URL, credentials unreadable). */
  readonly native: () => NativeEndpoint;
  readonly subscriptionLive: boolean;
}

export interface CommandTargets {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly targets: readonly CommandTarget[];
  /** Serving members left out because their logical node already has a target (a split-brain). */
  readonly skipped: readonly string[];
}

function nodeNotServing(nodeId: string): ProblemError {
  return new ProblemError({
    type: 'node-not-serving',
    title: 'Node not serving',
    status: 409,
    detail: `Node ${nodeId} is not a serving node of this cluster (unknown, or a passive backup): the operation names a node that holds the messages or the connection.`,
  });
}

/** Undefined when the cluster does not exist. With `nodeId`, exactly that node, which must be serving. */
export async function loadCommandTargets(
  prisma: PrismaClient,
  clusterId: string,
  nodeId?: string,
): Promise<CommandTargets | undefined> {
  const live = await loadLiveThroughTargets(prisma, clusterId);
  if (!live) return undefined;
  const [cluster, nodes, subscriptions] = await Promise.all([
    prisma.cluster.findUniqueOrThrow({ where: { id: clusterId } }),
    prisma.clusterNode.findMany({ where: { clusterId }, select: { id: true, amqpUrl: true } }),
    prisma.clusterNodeSubscription.findMany({ where: { clusterId }, select: { nodeId: true, state: true } }),
  ]);
  const amqpUrls = new Map(nodes.map((node) => [node.id, node.amqpUrl]));
  const established = new Set(subscriptions.filter((row) => row.state === 'established').map((row) => row.nodeId));
  const chosen = new Map<string, (typeof live.nodes)[number]>();
  const skipped: string[] = [];
  for (const node of live.nodes) {
    if (nodeId !== undefined) {
      if (node.nodeId === nodeId) chosen.set(node.logicalNode, node);
    } else if (chosen.has(node.logicalNode)) skipped.push(node.label);
    else chosen.set(node.logicalNode, node);
  }
  if (nodeId !== undefined && chosen.size === 0) throw nodeNotServing(nodeId);
  const targets = [...chosen.values()].map((node): CommandTarget => ({
    nodeId: node.nodeId,
    nodeName: node.label,
    logicalNode: node.logicalNode,
    endpoint: node.endpoint,
    native: () =>
      nativeEndpointOf(cluster, { id: node.nodeId, amqpUrl: amqpUrls.get(node.nodeId) ?? null }, processKeys()),
    subscriptionLive: established.has(node.nodeId),
  }));
  return { clusterId, clusterName: live.name, targets, skipped };
}
