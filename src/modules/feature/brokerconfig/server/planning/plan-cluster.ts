// A cluster's plan: for each live node (the canary first), the steps that take it from what management shows to the
// current revision, and the hazards of those steps, classified before anything is written. The hash covers every
// node's steps and hazards (and which nodes could not be read), so a real run that names it is refused when the
// cluster moved in any way that changes the plan.
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { reservedAddressesOf, type NodeFailure } from '@/modules/platform/clusters/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import { planHash, planNode, type NodePlan } from '../plan/index.ts';
import { currentRevision } from '../store/revisions.ts';
import { liveNodesOf, readNodes, type LiveRuntime, type NodeRead } from '../live/live-nodes.ts';

interface UnreadNode {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly failure: NodeFailure;
}

export interface ClusterPlan {
  readonly clusterId: string;
  readonly clusterName: string;
  /** The management user Flotilla signs in as (its roles feed the lock-out hazard). */
  readonly serviceUser: string;
  readonly revision: number;
  readonly document: ConfigDocument;
  readonly nodes: readonly NodePlan[];
  readonly unread: readonly UnreadNode[];
  readonly reads: readonly NodeRead[];
  readonly hash: string;
  /** The bulk POSTs each node's read took (the promise is at most two). */
  readonly postsPerNode: Record<string, number>;
}

type PlanRuntime = LiveRuntime;

export function notFound(): ProblemError {
  return new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
}

function noRevision(): ProblemError {
  return new ProblemError({
    type: 'no-revision',
    title: 'Nothing declared',
    status: 409,
    detail: 'This cluster has no declared configuration yet: save a first revision (or adopt the live one), then plan.',
  });
}

/** `${kind}:${key}` of what Flotilla applied on each node: the only items a plan may remove there. */
export async function appliedKeysOf(prisma: PrismaClient, clusterId: string): Promise<Map<string, Set<string>>> {
  const rows = await prisma.configAppliedItem.findMany({
    where: { clusterId },
    select: { nodeId: true, kind: true, key: true },
  });
  const byNode = new Map<string, Set<string>>();
  for (const row of rows) byNode.set(row.nodeId, (byNode.get(row.nodeId) ?? new Set()).add(`${row.kind}:${row.key}`));
  return byNode;
}

export async function planCluster(runtime: PlanRuntime, clusterId: string): Promise<ClusterPlan> {
  // Nothing declared is answered before any node is asked (or any credential opened).
  const revision = await currentRevision(runtime.prisma, clusterId);
  if (!revision) throw noRevision();
  const live = await liveNodesOf(runtime, clusterId);
  if (!live) throw notFound();
  const [applied, serviceAddresses] = await Promise.all([
    appliedKeysOf(runtime.prisma, clusterId),
    reservedAddressesOf(runtime.prisma, clusterId),
  ]);
  const reads = await readNodes(live.nodes, revision.document, live.serviceUser, applied);
  const nodes: NodePlan[] = [];
  const unread: UnreadNode[] = [];
  for (const read of reads) {
    if (!read.snapshot) {
      unread.push({ nodeId: read.node.nodeId, nodeName: read.node.nodeName, failure: read.failure as NodeFailure });
      continue;
    }
    nodes.push(
      planNode({
        document: revision.document,
        snapshot: read.snapshot,
        appliedKeys: applied.get(read.node.nodeId) ?? new Set(),
        node: { nodeId: read.node.nodeId, nodeName: read.node.nodeName },
        serviceAddresses: serviceAddresses.filter(Boolean),
        ...(read.snapshot.serviceUser ? { serviceRoles: read.snapshot.serviceUser.roles } : {}),
      }),
    );
  }
  const hash = planHash({
    revision: revision.number,
    nodes: [...nodes, ...unread.map((node) => ({ nodeId: node.nodeId, steps: [], hazards: [], unread: true }))],
  });
  return {
    clusterId,
    clusterName: live.clusterName,
    serviceUser: live.serviceUser,
    revision: revision.number,
    document: revision.document,
    nodes,
    unread,
    reads,
    hash,
    postsPerNode: Object.fromEntries(reads.map((read) => [read.node.nodeName, read.snapshot?.posts ?? 0])),
  };
}
