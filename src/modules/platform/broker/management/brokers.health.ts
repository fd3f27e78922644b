// The `brokers` health indicator, answered by whichever process serves /actuator/health/flotilla from what the
// workers reported (health-report.worker.ts): per node the last management success and failure with its classified
// problem and the limiter's wait, per cluster the open native connections, and how old the report is. This
// instance's worker not reporting for two intervals is DOWN; a node whose latest call failed is DEGRADED, never
// DOWN: an unreachable broker is not a reason to restart Flotilla.
import type { HealthComponent, HealthContext } from '@/modules/kernel/plugin/index.ts';
import type { NodeReport } from './health-report.worker.ts';
import { REPORT_INTERVALS_ALIVE } from './health-report.settings.ts';

interface ReportRow {
  readonly instanceId: string;
  readonly reportedAt: Date;
  readonly intervalMs: number;
  readonly nodes: unknown;
  readonly nativeConnections: unknown;
}

export async function check(context: HealthContext, now = new Date()): Promise<HealthComponent> {
  const rows: ReportRow[] = await context.prisma.brokerWorkerReport.findMany({ orderBy: { instanceId: 'asc' } });
  const workers = rows.map((row) => {
    const ageMs = now.getTime() - row.reportedAt.getTime();
    return {
      instanceId: row.instanceId,
      reportedAt: row.reportedAt.toISOString(),
      ageMs,
      alive: ageMs <= REPORT_INTERVALS_ALIVE * row.intervalMs,
      nodes: row.nodes as NodeReport[],
      nativeConnections: row.nativeConnections as Record<string, number>,
    };
  });
  const own = workers.find((worker) => worker.instanceId === context.instanceId);
  if (!own) {
    return { status: 'UNKNOWN', details: { reason: 'this instance’s worker has not reported yet', workers } };
  }
  if (!own.alive) {
    return {
      status: 'DOWN',
      details: { reason: `this instance’s worker last reported ${Math.round(own.ageMs / 1000)} s ago`, workers },
    };
  }
  const degraded = own.nodes.filter((node) => node.status === 'DEGRADED').map((node) => node.node);
  return {
    status: degraded.length > 0 ? 'DEGRADED' : 'UP',
    details: {
      reportedAt: own.reportedAt,
      ageMs: own.ageMs,
      nodes: own.nodes,
      degraded,
      nativeConnections: own.nativeConnections,
      workers,
    },
  };
}
