// The `scrape` health indicator, answered by any process from the database (the worker that scrapes records node
// polls through the clusters module and writes scrape_sweep; the web process serving /actuator/health/flotilla reads
// both): per node the last
// management success and failure, the limiter wait of its last sweep, and which tiers are stale. A stale or failing
// node makes the group DEGRADED, never DOWN.
import type { HealthComponent, HealthContext } from '@/modules/kernel/plugin/index.ts';
import { listPolledNodes } from '@/modules/platform/clusters/index.ts';
import { readSweeps } from '../read/sweeps.ts';

export async function check(context: HealthContext): Promise<HealthComponent> {
  const [sweeps, nodes] = await Promise.all([readSweeps(context.prisma), listPolledNodes(context.prisma)]);
  const report = nodes.map((node) => {
    const own = sweeps.filter((sweep) => sweep.nodeId === node.id);
    const staleTiers = own.filter((sweep) => sweep.stale).map((sweep) => sweep.tier);
    const failing =
      node.lastFailureAt !== null && (node.lastSuccessAt === null || node.lastFailureAt > node.lastSuccessAt);
    return {
      clusterId: node.clusterId,
      node: node.managementUrl,
      status: failing || staleTiers.length > 0 ? 'DEGRADED' : 'UP',
      lastSuccessAt: node.lastSuccessAt?.toISOString() ?? null,
      lastFailureAt: node.lastFailureAt?.toISOString() ?? null,
      lastError: failing ? node.lastError : null,
      staleTiers,
      scrapedBy: own.find((sweep) => sweep.tier === 'A')?.instanceId ?? null,
      limiterWaitMs: Math.max(0, ...own.map((sweep) => sweep.limiterWaitMs ?? 0)),
    };
  });
  const degraded = report.filter((node) => node.status === 'DEGRADED').map((node) => node.node);
  return {
    status: degraded.length > 0 ? 'DEGRADED' : 'UP',
    details: report.length === 0 ? { nodes: report, reason: 'no cluster registered' } : { nodes: report, degraded },
  };
}
