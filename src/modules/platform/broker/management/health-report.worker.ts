// The worker holds every broker connection, so only it knows how the brokers answer. It reports what it holds to
// the database every broker.health.report-interval; the `brokers` health indicator, answered by the web process,
// reads the report and its age. A report older than two intervals means the worker is gone: DOWN.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { openNativeConnectionCounts } from '../native/native-pool.ts';
import { reportIntervalSetting } from './health-report.settings.ts';
import { listNodeStates } from './node-state-registry.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('broker');

/** Reports of instances that stopped for good are kept this long, then dropped. */
const FORGET_AFTER = '1 day';

export interface NodeReport {
  readonly node: string;
  readonly status: 'UP' | 'DEGRADED';
  readonly lastSuccessAt: string | null;
  readonly lastFailureAt: string | null;
  readonly lastError: { readonly kind: string; readonly message: string; readonly advice: string } | null;
  readonly limiterWaitMs: { readonly last: number; readonly average: number; readonly max: number } | null;
  readonly queuedCalls: number;
}

/** What this process holds right now: each node's management state, and open native connections per cluster. */
export function currentReport(): { nodes: NodeReport[]; nativeConnections: Record<string, number> } {
  const nodes = listNodeStates().map((state): NodeReport => {
    const failing =
      state.lastFailureAt !== undefined &&
      (state.lastSuccessAt === undefined || state.lastFailureAt > state.lastSuccessAt);
    return {
      node: state.nodeKey,
      status: failing ? 'DEGRADED' : 'UP',
      lastSuccessAt: state.lastSuccessAt?.toISOString() ?? null,
      lastFailureAt: state.lastFailureAt?.toISOString() ?? null,
      lastError: state.lastProblem
        ? { kind: state.lastProblem.kind, message: state.lastProblem.message, advice: state.lastProblem.advice }
        : null,
      limiterWaitMs: state.limiter
        ? { last: state.limiter.lastWaitMs, average: state.limiter.averageWaitMs, max: state.limiter.maxWaitMs }
        : null,
      queuedCalls: state.limiter?.queued ?? 0,
    };
  });
  return { nodes, nativeConnections: openNativeConnectionCounts() };
}

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const report = async () => {
    const intervalMs = context.settings.duration(reportIntervalSetting);
    const { nodes, nativeConnections } = currentReport();
    await context.pool.query(
      `INSERT INTO broker_worker_report (instance_id, reported_at, interval_ms, nodes, native_connections)
       VALUES ($1, now(), $2, $3, $4)
       ON CONFLICT (instance_id) DO UPDATE SET reported_at = now(), interval_ms = $2, nodes = $3,
         native_connections = $4`,
      [context.instanceId, intervalMs, JSON.stringify(nodes), JSON.stringify(nativeConnections)],
    );
    await context.pool.query(`DELETE FROM broker_worker_report WHERE reported_at < now() - interval '${FORGET_AFTER}'`);
  };
  const loop = () => {
    if (stopped) return;
    report()
      .catch((error: unknown) => log.error({ err: error }, 'cannot write the worker report'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, context.settings.duration(reportIntervalSetting));
      });
  };
  loop();
  return Promise.resolve({
    stop() {
      stopped = true;
      clearTimeout(timer);
      return Promise.resolve();
    },
  });
}
