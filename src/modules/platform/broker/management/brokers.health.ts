// The `brokers` health indicator: per node, the last management success and failure (with its classified
// problem) and how long calls wait in the node's limiter. A node whose latest call failed makes the group
// DEGRADED, never DOWN: an unreachable broker is not a reason to restart Flotilla.
import type { HealthComponent } from '../../../kernel/plugin/descriptor.ts';
import { openNativeConnectionCounts } from '../native/native-pool.ts';
import { listNodeStates } from './node-state-registry.ts';

export function check(): Promise<HealthComponent> {
  const nodes = listNodeStates().map((state) => {
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
  // Open native (AMQP) connections per cluster, as counted in this process.
  const nativeConnections = openNativeConnectionCounts();
  if (nodes.length === 0)
    return Promise.resolve({
      status: 'UP',
      details: { nodes, nativeConnections, reason: 'no management call made yet' },
    });
  const degraded = nodes.filter((node) => node.status === 'DEGRADED').map((node) => node.node);
  return Promise.resolve({
    status: degraded.length > 0 ? 'DEGRADED' : 'UP',
    details: { nodes, degraded, nativeConnections },
  });
}
