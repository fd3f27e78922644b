// The answer of a live-through read no node of the cluster answered (502 live-read-failed), in the words every such
// read uses: each node's reason, what the capability ledger says of management reads, and the broker configuration
// that fixes it. A read with at least one answer is no problem: it names its failed nodes itself.
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { listCapabilities } from '../cluster-query.ts';
import type { NodeFailure } from './node-clients.ts';

interface UnansweredNode {
  readonly nodeName: string;
  readonly failure: NodeFailure | null;
}

/** The problem to throw; `failures` (each node's outcome as the read reports it) are carried in it as they are. */
export async function liveReadFailed(
  prisma: PrismaClient,
  clusterId: string,
  failures: readonly UnansweredNode[],
): Promise<ProblemError> {
  const ledger = await listCapabilities(prisma, clusterId);
  const managementRead = ledger.find((entry) => entry.capability === 'MANAGEMENT_READ');
  const first = failures.find((node) => node.failure)?.failure;
  return new ProblemError({
    type: 'live-read-failed',
    title: 'No node answered',
    status: 502,
    detail: `Every node of the cluster failed the live read: ${failures
      .map((node) => `${node.nodeName}: ${node.failure?.kind ?? 'failed'} (${node.failure?.message ?? ''})`)
      .join('; ')}. ${first?.advice ?? ''}`.trim(),
    nodes: failures,
    capability: managementRead
      ? { capability: 'MANAGEMENT_READ', value: managementRead.value, detail: managementRead.detail }
      : null,
    configSnippet: first?.configSnippet ?? managementRead?.snippet ?? null,
  });
}
