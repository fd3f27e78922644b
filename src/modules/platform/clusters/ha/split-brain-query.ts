// Reads of the persisted split-brain verdict for the web process: the cluster API's `splitBrain` field, the `ha`
// health indicator and the cluster screen's banner.
import type { PrismaClient } from '@/base/db/database.ts';

export interface SplitBrainView {
  readonly clusterId: string;
  readonly cluster: string;
  /** The NodeID the pair shares. */
  readonly logicalNode: string;
  readonly since: string;
  readonly nodes: ReadonlyArray<{ readonly id: string; readonly name: string; readonly managementUrl: string }>;
}

/** Whether a corroborated split-brain is ongoing in the cluster. */
export async function splitBrainOf(prisma: PrismaClient, clusterId: string): Promise<boolean> {
  const cluster = await prisma.cluster.findUnique({ where: { id: clusterId }, select: { splitBrainSince: true } });
  return Boolean(cluster?.splitBrainSince);
}

/** Every ongoing split-brain, one entry per logical node; `clusterId` narrows it to one cluster. */
export async function listSplitBrains(prisma: PrismaClient, clusterId?: string): Promise<SplitBrainView[]> {
  const nodes = await prisma.clusterNode.findMany({
    where: { splitBrainSince: { not: null }, ...(clusterId ? { clusterId } : {}) },
    orderBy: [{ clusterId: 'asc' }, { brokerNodeId: 'asc' }, { managementUrl: 'asc' }],
  });
  const clusterIds = [...new Set(nodes.map((node) => node.clusterId))];
  const clusters = await prisma.cluster.findMany({
    where: { id: { in: clusterIds } },
    select: { id: true, name: true },
  });
  const names = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
  const views = new Map<string, SplitBrainView & { nodes: SplitBrainView['nodes'][number][] }>();
  for (const node of nodes) {
    const logicalNode = node.brokerNodeId ?? node.id;
    const key = `${node.clusterId}/${logicalNode}`;
    const view = views.get(key) ?? {
      clusterId: node.clusterId,
      cluster: names.get(node.clusterId) ?? node.clusterId,
      logicalNode,
      since: (node.splitBrainSince as Date).toISOString(),
      nodes: [],
    };
    view.nodes.push({ id: node.id, name: node.brokerName ?? node.managementUrl, managementUrl: node.managementUrl });
    views.set(key, view);
  }
  return [...views.values()];
}
