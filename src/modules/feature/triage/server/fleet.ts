// The fleet at a glance: every cluster the caller may see with its health in words, and — where the caller may
// read them — its queue totals and consumer-health verdicts. Three statements whatever the fleet's size: the
// clusters with their nodes and capabilities, the queue summaries, the verdict counts.
import type { Database } from '@/base/db/database.ts';
import { clusterPermissions, type EffectiveGrant } from '@/modules/kernel/access/index.ts';
import { visibleClusters, type FleetCluster } from '@/modules/platform/clusters/index.ts';
import { queueSummariesOf } from '@/modules/platform/scrape/read/index.ts';
import { isVerdict, needsAttention, type Verdict } from '@/base/consumer-verdicts.ts';
import { verdictCountsOf } from '@/modules/feature/metrics/index.ts';
import { parseSort } from '@/modules/kernel/core/index.ts';
import type { CLUSTER_HEALTH, FLEET_SORT } from './triage.schema.ts';

type Health = (typeof CLUSTER_HEALTH)[number];

function healthOf(cluster: FleetCluster): { health: Health; problems: string[] } {
  const problems: string[] = [];
  if (cluster.nodeCount > 0 && cluster.failingNodeCount === cluster.nodeCount)
    return { health: 'DOWN', problems: ['no node answers'] };
  if (cluster.lastSuccessAt === null) return { health: 'UNKNOWN', problems: ['never polled yet'] };
  if (cluster.failingNodeCount > 0) problems.push(`${cluster.failingNodeCount} of ${cluster.nodeCount} nodes fail`);
  if (cluster.unservedLogicalNodeCount > 0)
    problems.push(`${cluster.unservedLogicalNodeCount} logical node(s) with no serving member`);
  if (cluster.splitBrainSince) problems.push('split-brain');
  const lost = Object.entries(cluster.capabilities).filter(([, value]) => value === 'UNAVAILABLE');
  for (const [capability] of lost) problems.push(`${capability} unavailable`);
  return { health: problems.length > 0 ? 'DEGRADED' : 'UP', problems };
}

type FleetSortField = (typeof FLEET_SORT)[number];
const HEALTH_RANK: Record<Health, number> = { DOWN: 0, DEGRADED: 1, UNKNOWN: 2, UP: 3 };

export async function readFleet(
  runtime: { readonly db: Database },
  grants: readonly EffectiveGrant[],
  q?: string,
  sort = 'name',
) {
  const needle = q?.toLowerCase();
  const clusters = (await visibleClusters(runtime.db.prisma, grants, 'cluster:read')).filter(
    (cluster) =>
      !needle || [cluster.name, cluster.environment?.name ?? ''].some((text) => text.toLowerCase().includes(needle)),
  );
  const permissions = new Map(
    clusters.map((cluster) => [
      cluster.id,
      clusterPermissions(grants, { clusterId: cluster.id, environmentId: cluster.environment?.id ?? null }),
    ]),
  );
  const readable = (permission: string) =>
    clusters.filter((cluster) => permissions.get(cluster.id)?.has(permission)).map((cluster) => cluster.id);
  const queueReadable = readable('queue:read');
  const metricReadable = readable('metric:read');
  const [summaries, verdicts] = await Promise.all([
    queueSummariesOf(runtime.db, queueReadable),
    verdictCountsOf(runtime.db, metricReadable),
  ]);
  const items = clusters.map((cluster) => {
    const { health, problems } = healthOf(cluster);
    const summary = summaries.get(cluster.id);
    const judged = verdicts.get(cluster.id);
    return {
      id: cluster.id,
      name: cluster.name,
      environment: cluster.environment,
      health,
      problems,
      nodeCount: cluster.nodeCount,
      logicalNodeCount: cluster.logicalNodeCount,
      failingNodeCount: cluster.failingNodeCount,
      splitBrainSince: cluster.splitBrainSince,
      capabilityProblems: Object.entries(cluster.capabilities)
        .filter(([, value]) => value === 'UNAVAILABLE')
        .map(([capability]) => capability),
      lastSuccessAt: cluster.lastSuccessAt,
      queues: summary
        ? {
            count: summary.queues,
            backlog: summary.backlog,
            deadLetterDepth: summary.deadLetterDepth,
            growing: summary.growing,
            scrapedAt: summary.scrapedAt,
          }
        : null,
      verdicts: judged ?? null,
    };
  });
  sortFleet(items, sort);
  return {
    clusters: items,
    totals: {
      clusters: items.length,
      down: items.filter((item) => item.health === 'DOWN').length,
      degraded: items.filter((item) => item.health === 'DEGRADED').length,
      backlog: items.reduce((sum, item) => sum + (item.queues?.backlog ?? 0), 0),
      deadLetterDepth: items.reduce((sum, item) => sum + (item.queues?.deadLetterDepth ?? 0), 0),
      needingAttention: items.reduce((sum, item) => sum + needingAttention(item), 0),
    },
  };
}

interface FleetItem {
  readonly name: string;
  readonly health: Health;
  readonly failingNodeCount: number;
  readonly queues: { readonly backlog: number; readonly deadLetterDepth: number } | null;
  readonly verdicts: { readonly counts: Partial<Record<Verdict, number>> } | null;
}

function needingAttention(item: FleetItem): number {
  return Object.entries(item.verdicts?.counts ?? {})
    .filter(([verdict]) => isVerdict(verdict) && needsAttention(verdict))
    .reduce((count, [, n]) => count + n, 0);
}

/** Sorts in place by the `sort` field (name breaks ties); a cluster with no figure (no access) sorts last. */
function sortFleet(items: FleetItem[], sort: string): void {
  const { field, direction } = parseSort<FleetSortField>(sort);
  const keyOf: Record<FleetSortField, (item: FleetItem) => number | string | undefined> = {
    name: (item) => item.name,
    health: (item) => HEALTH_RANK[item.health],
    backlog: (item) => item.queues?.backlog,
    deadLetterDepth: (item) => item.queues?.deadLetterDepth,
    failingNodes: (item) => item.failingNodeCount,
    needingAttention: (item) => (item.verdicts ? needingAttention(item) : undefined),
  };
  const sign = direction === 'asc' ? 1 : -1;
  items.sort((a, b) => {
    const [left, right] = [keyOf[field](a), keyOf[field](b)];
    if (left !== right) {
      if (left === undefined) return 1;
      if (right === undefined) return -1;
      const order = typeof left === 'string' ? left.localeCompare(String(right)) : left - Number(right);
      if (order !== 0) return order * sign;
    }
    return a.name.localeCompare(b.name);
  });
}
