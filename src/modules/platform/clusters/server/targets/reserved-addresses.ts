// The broker's own addresses of a cluster, for the command sequence (platform/commands), which refuses a destination
// that reaches them (docs/messages.md), and for the inputs that name an address to watch (a capture, an expectation),
// refused as a bad field. The addresses each node is configured with come from its last poll (cluster_node); a node
// never polled adds nothing.
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';
import { reservedAddressReason } from '@/modules/platform/broker/index.ts';

/** The management and notification addresses the cluster's nodes reported (blank for a node never polled). */
export async function reservedAddressesOf(prisma: PrismaClient, clusterId: string): Promise<string[]> {
  const nodes = await prisma.clusterNode.findMany({
    where: { clusterId },
    select: { managementAddress: true, notificationAddress: true },
  });
  return nodes.flatMap((node) => [node.managementAddress ?? '', node.notificationAddress ?? '']);
}

/**
 * Refuses (400, the field named) the first name that reaches the broker's own management or notification address, or
 * its internals, on any node of the cluster; `refused` ends the message (`not indexed`, `not traced`).
 */
export async function refuseReservedNames(
  prisma: PrismaClient,
  clusterId: string,
  names: ReadonlyArray<readonly [field: string, name: string | null]>,
  refused: string,
): Promise<void> {
  const reserved = await reservedAddressesOf(prisma, clusterId);
  for (const [field, name] of names) {
    const reason = name === null ? undefined : reservedAddressReason(name, reserved);
    if (reason) throw new ProblemError(validationProblem([{ field, message: `${reason}: ${refused}` }]));
  }
}
