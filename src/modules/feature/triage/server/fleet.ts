// The fleet at a glance: every cluster the caller may see with its health in words, and — where the caller may
// read them — its queue totals and consumer-health verdicts. Three statements whatever the fleet's size: the
// clusters with their nodes and capabilities, the queue summaries, the verdict counts.
import type { Database } from '@/base/db/database.ts';
import { clusterPermissions, type EffectiveGrant } from '@/modules/kernel/access/index.ts';
import { visibleClusters, type FleetCluster } from '@/modules/platform/clusters/index.ts';
import { queueSummariesOf } from '@/modules/platform/scrape/index.ts';
import { verdictCountsOf, type Verdict } from '@/modules/feature/metrics/index.ts';
import type { CLUSTER_HEALTH } from './triage.schema.ts';

type Health = (typeof CLUSTER_HEALTH)[number];

/** Verdicts nobody needs to act on. */
const CALM: ReadonlySet<Verdict> = new Set(['HEALTHY', 'DRAINING', 'INSUFFICIENT_DATA']);

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

export async function readFleet(runtime: { readonly db: Database }, grants: readonly EffectiveGrant[], q?: string) {
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
  return {
    clusters: items,
    totals: {
      clusters: items.length,
      down: items.filter((item) => item.health === 'DOWN').length,
      degraded: items.filter((item) => item.health === 'DEGRADED').length,
      backlog: items.reduce((sum, item) => sum + (item.queues?.backlog ?? 0), 0),
      deadLetterDepth: items.reduce((sum, item) => sum + (item.queues?.deadLetterDepth ?? 0), 0),
      needingAttention: items.reduce(
        (sum, item) =>
          sum +
          Object.entries(item.verdicts?.counts ?? {})
            .filter(([verdict]) => !CALM.has(verdict as Verdict))
            .reduce((count, [, n]) => count + n, 0),
        0,
      ),
    },
  };
}
