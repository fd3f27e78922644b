// Drift: the current revision against every live node, per item (plan/drift.ts compares), stored as the latest
// evaluation (config_drift) so the screen, the cluster overview, config_diff and the alert condition read one table.
// A node that cannot be read keeps its last rows, whose evaluated_at says how old they are. Without a revision there
// is nothing to drift from: the rows go.
import type { PrismaClient } from '@/base/db/database.ts';
import { driftOfNode } from '../plan/index.ts';
import { currentRevision } from '../store/revisions.ts';
import { liveNodesOf, readNodes, type LiveRuntime } from '../live/live-nodes.ts';

type DriftRuntime = LiveRuntime;

export interface DriftSummary {
  readonly revision: number | null;
  readonly drifted: number;
  readonly unreadNodes: readonly string[];
}

export async function evaluateDrift(runtime: DriftRuntime, clusterId: string): Promise<DriftSummary> {
  const { prisma } = runtime;
  const revision = await currentRevision(prisma, clusterId);
  const live = await liveNodesOf(runtime, clusterId);
  if (!revision || !live) {
    await prisma.configDrift.deleteMany({ where: { clusterId } });
    return { revision: null, drifted: 0, unreadNodes: [] };
  }
  const reads = await readNodes(live.nodes, revision.document, live.serviceUser);
  const evaluatedAt = new Date();
  const rows = reads.flatMap((read) =>
    read.snapshot
      ? driftOfNode(revision.document, read.snapshot).map((item) => ({
          clusterId,
          nodeId: read.node.nodeId,
          nodeName: read.node.nodeName,
          kind: item.kind,
          key: item.key,
          state: item.state,
          fields: JSON.parse(JSON.stringify(item.fields)) as object,
          revision: revision.number,
          evaluatedAt,
        }))
      : [],
  );
  const readNodeIds = reads.filter((read) => read.snapshot).map((read) => read.node.nodeId);
  const servingIds = live.nodes.map((node) => node.nodeId);
  await prisma.$transaction([
    // Rows of nodes read now are replaced; rows of nodes no longer serving go (a backup that stopped serving).
    prisma.configDrift.deleteMany({
      where: { clusterId, OR: [{ nodeId: { in: readNodeIds } }, { nodeId: { notIn: servingIds } }] },
    }),
    prisma.configDrift.createMany({ data: rows }),
  ]);
  return {
    revision: revision.number,
    drifted: rows.filter((row) => row.state === 'DRIFTED' || row.state === 'MISSING').length,
    unreadNodes: reads.filter((read) => !read.snapshot).map((read) => read.node.nodeName),
  };
}

/** The stored evaluation, per node and item, with how old it is. */
export async function readDrift(prisma: PrismaClient, clusterId: string) {
  const rows = await prisma.configDrift.findMany({
    where: { clusterId },
    orderBy: [{ nodeName: 'asc' }, { kind: 'asc' }, { key: 'asc' }],
  });
  return rows.map((row) => ({
    nodeId: row.nodeId,
    nodeName: row.nodeName,
    kind: row.kind,
    key: row.key,
    state: row.state as 'IN_SYNC' | 'DRIFTED' | 'MISSING' | 'UNVERIFIABLE',
    fields: row.fields as { field: string; declared: unknown; live: unknown }[],
    revision: row.revision,
    evaluatedAt: row.evaluatedAt.toISOString(),
  }));
}
