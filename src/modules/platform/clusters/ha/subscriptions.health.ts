// The `subscriptions` health indicator (spec: Operational health): per serving node whether its notification
// subscription is established and, if not, why and what broker configuration would fix it. The subscriptions live
// in the worker; this reads what the worker persisted, so the web process answering the health endpoint sees them.
import type { HealthComponent, HealthContext } from '@/modules/kernel/plugin/index.ts';

/** A row nobody confirmed for this long belongs to a worker that stopped reconciling (stopped or crashed). */
export const STALE_AFTER_MS = 60_000;

export async function check(context: HealthContext): Promise<HealthComponent> {
  const rows = await context.prisma.clusterNodeSubscription.findMany({ orderBy: [{ clusterId: 'asc' }] });
  const nodeIds = rows.map((row) => row.nodeId);
  const [nodes, clusters] = await Promise.all([
    context.prisma.clusterNode.findMany({
      where: { id: { in: nodeIds } },
      select: { id: true, brokerName: true, managementUrl: true },
    }),
    context.prisma.cluster.findMany({
      where: { id: { in: [...new Set(rows.map((row) => row.clusterId))] } },
      select: { id: true, name: true },
    }),
  ]);
  const nodeById = new Map(nodes.map((node) => [node.id, node]));
  const clusterName = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
  const now = Date.now();
  let established = 0;
  let notEstablished = 0;
  let stale = 0;
  const details = rows.map((row) => {
    const isStale = now - row.checkedAt.getTime() > STALE_AFTER_MS;
    if (isStale) stale += 1;
    else if (row.state === 'established') established += 1;
    else if (row.state === 'refused') notEstablished += 1;
    const node = nodeById.get(row.nodeId);
    return {
      cluster: clusterName.get(row.clusterId) ?? row.clusterId,
      clusterId: row.clusterId,
      node: node?.brokerName ?? node?.managementUrl ?? row.nodeId,
      nodeId: row.nodeId,
      state: row.state === 'refused' ? 'not-established' : row.state,
      ...(row.state === 'refused' ? { reason: row.reason, cause: row.cause, snippet: row.snippet } : {}),
      since: row.since?.toISOString() ?? null,
      checkedAt: row.checkedAt.toISOString(),
      instanceId: row.instanceId,
      ...(isStale ? { stale: true } : {}),
    };
  });
  // No serving node yet is nothing to worry about (an empty installation is healthy); a subscription that exists
  // but is refused is, and so is one nobody has confirmed for a minute.
  const status = notEstablished > 0 || stale > 0 ? 'DEGRADED' : rows.length === 0 || established > 0 ? 'UP' : 'UNKNOWN';
  return { status, details: { nodes: details, established, notEstablished, stale } };
}
