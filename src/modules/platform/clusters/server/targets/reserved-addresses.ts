// The broker's own addresses of a cluster, for the command sequence (platform/commands), which refuses a destination
// that reaches them (docs/messages.md). The addresses each node is configured with come from its last poll
// (cluster_node); a node never polled adds nothing.
import type { PrismaClient } from '@/base/db/database.ts';

/** The management and notification addresses the cluster's nodes reported (blank for a node never polled). */
export async function reservedAddressesOf(prisma: PrismaClient, clusterId: string): Promise<string[]> {
  const nodes = await prisma.clusterNode.findMany({
    where: { clusterId },
    select: { managementAddress: true, notificationAddress: true },
  });
  return nodes.flatMap((node) => [node.managementAddress ?? '', node.notificationAddress ?? '']);
}
