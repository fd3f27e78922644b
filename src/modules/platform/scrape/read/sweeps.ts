// The sweeps as any process reads them, for the screens, the API and health: per node per tier the last sweep with
// its staleness, and which nodes' queue numbers are stale. Staleness is judged against the interval recorded with
// each sweep, so any process can tell (the web process answering health has no scraper of its own).
import type { PrismaClient } from '@/base/db/database.ts';
import { listPolledNodes } from '@/modules/platform/clusters/index.ts';
import { isStale, queueDataStale } from './staleness.ts';
import { TIERS, type Tier } from './tiers.ts';

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
