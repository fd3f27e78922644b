// Reads for the screens, the API and health: per node per tier the last sweep with staleness, and the per-node
// queue rows with their node's staleness. Staleness is judged against the interval recorded with each sweep, so
// any process can tell (the web process answering health has no scraper of its own).
import type { PrismaClient } from '@/base/db/database.ts';
import { listPolledNodes } from '@/modules/platform/clusters/index.ts';
import type { QueueMetrics } from './queue-rows.ts';
import { TIERS, type Tier } from './scrape.settings.ts';
import { isStale, queueDataStale } from './staleness.ts';

export interface SweepView {
  readonly nodeId: string;
  readonly managementUrl: string;
  readonly tier: Tier;
  /** The tier's interval when the last sweep ran; null before the first. */
  readonly intervalMs: number | null;
  readonly stale: boolean;
  readonly instanceId: string | null;
  readonly lastStartedAt: string | null;
  readonly lastCompletedAt: string | null;
  readonly lastFailedAt: string | null;
  readonly lastDurationMs: number | null;
  readonly lastError: string | null;
  readonly rowsPersisted: number;
  readonly listedTotal: number | null;
  readonly limiterWaitMs: number | null;
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** Every node of the clusters named (all clusters when undefined) with one entry per tier, swept or not. */
export async function readSweeps(
  prisma: PrismaClient,
  clusterId?: string,
  now: Date = new Date(),
): Promise<Array<SweepView & { clusterId: string }>> {
  const where = clusterId ? { clusterId } : {};
  const [nodes, sweeps] = await Promise.all([
    listPolledNodes(prisma, clusterId),
    prisma.scrapeSweep.findMany({ where }),
  ]);
  const byKey = new Map(sweeps.map((sweep) => [`${sweep.nodeId}:${sweep.tier}`, sweep]));
  return nodes.flatMap((node) =>
    TIERS.map((tier) => {
      const sweep = byKey.get(`${node.id}:${tier}`);
      const intervalMs = sweep?.intervalMs ?? null;
      return {
        clusterId: node.clusterId,
        nodeId: node.id,
        managementUrl: node.managementUrl,
        tier,
        intervalMs,
        stale: intervalMs === null || isStale(sweep?.lastCompletedAt, intervalMs, now),
        instanceId: sweep?.instanceId ?? null,
        lastStartedAt: iso(sweep?.lastStartedAt),
        lastCompletedAt: iso(sweep?.lastCompletedAt),
        lastFailedAt: iso(sweep?.lastFailedAt),
        lastDurationMs: sweep?.lastDurationMs ?? null,
        lastError: sweep?.lastError ?? null,
        rowsPersisted: sweep?.rowsPersisted ?? 0,
        listedTotal: sweep?.listedTotal ?? null,
        limiterWaitMs: sweep?.limiterWaitMs ?? null,
      };
    }),
  );
}

export interface QueueRowView extends QueueMetrics {
  readonly nodeId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly paused: boolean | null;
  readonly scrapedAt: string;
  readonly seenIn: string;
  /** The node's queue numbers are old: its last tier-B or tier-C sweep is more than two tier-B intervals ago. */
  readonly stale: boolean;
}

/** Whether a node's queue numbers are stale, for every node of the cluster (one read of its B and C sweeps). */
export async function staleNodesOf(
  prisma: PrismaClient,
  clusterId: string,
  now: Date = new Date(),
): Promise<(nodeId: string) => boolean> {
  const sweeps = await prisma.scrapeSweep.findMany({ where: { clusterId, tier: { in: ['B', 'C'] } } });
  const sweepOf = (nodeId: string, tier: Tier) =>
    sweeps.find((sweep) => sweep.nodeId === nodeId && sweep.tier === tier);
  return (nodeId) => {
    const [b, c] = [sweepOf(nodeId, 'B'), sweepOf(nodeId, 'C')];
    const tierB = b?.intervalMs ?? c?.intervalMs;
    return tierB === undefined || queueDataStale(b?.lastCompletedAt, c?.lastCompletedAt, tierB, now);
  };
}

export type QueueSortField = 'queueName' | 'messageCount' | 'consumerCount' | 'scrapedAt';

export async function readQueueRows(
  prisma: PrismaClient,
  query: {
    clusterId: string;
    nodeId?: string;
    q?: string;
    sort: { field: QueueSortField; direction: 'asc' | 'desc' };
    page: number;
    pageSize: number;
  },
  now: Date = new Date(),
): Promise<{ items: QueueRowView[]; total: number }> {
  const where = {
    clusterId: query.clusterId,
    ...(query.nodeId ? { nodeId: query.nodeId } : {}),
    ...(query.q ? { queueName: { contains: query.q, mode: 'insensitive' as const } } : {}),
  };
  const [rows, total, stale] = await Promise.all([
    prisma.queueSnapshot.findMany({
      where,
      orderBy: [{ [query.sort.field]: query.sort.direction }, { queueName: 'asc' }, { nodeId: 'asc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    prisma.queueSnapshot.count({ where }),
    staleNodesOf(prisma, query.clusterId, now),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      nodeId: row.nodeId,
      address: row.address,
      queueName: row.queueName,
      routingType: row.routingType,
      messageCount: Number(row.messageCount),
      consumerCount: row.consumerCount,
      deliveringCount: Number(row.deliveringCount),
      messagesAdded: Number(row.messagesAdded),
      messagesAcked: Number(row.messagesAcked),
      messagesExpired: Number(row.messagesExpired),
      messagesKilled: Number(row.messagesKilled),
      paused: row.paused,
      scrapedAt: row.scrapedAt.toISOString(),
      seenIn: row.seenIn,
      stale: stale(row.nodeId),
    })),
  };
}
