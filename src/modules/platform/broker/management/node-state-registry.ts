// What this process last saw of each broker node's management channel: last success, last failure with its
// classified problem, and the limiter's wait. In-process only; the `brokers` health indicator and, later, the
// clusters module read it. Keyed by the node's management URL.
import type { ManagementProblem } from './management-error.ts';
import type { LimiterStats } from './node-limiter.ts';

export interface NodeManagementState {
  readonly nodeKey: string;
  readonly lastSuccessAt: Date | undefined;
  readonly lastFailureAt: Date | undefined;
  readonly lastProblem: ManagementProblem | undefined;
  readonly limiter: LimiterStats | undefined;
}

interface MutableState {
  lastSuccessAt?: Date;
  lastFailureAt?: Date;
  lastProblem?: ManagementProblem;
  limiterStats?: () => LimiterStats;
}

const states = new Map<string, MutableState>();

function stateOf(nodeKey: string): MutableState {
  let state = states.get(nodeKey);
  if (!state) {
    state = {};
    states.set(nodeKey, state);
  }
  return state;
}

export function recordSuccess(nodeKey: string): void {
  stateOf(nodeKey).lastSuccessAt = new Date();
}

export function recordFailure(nodeKey: string, problem: ManagementProblem): void {
  const state = stateOf(nodeKey);
  state.lastFailureAt = new Date();
  state.lastProblem = problem;
}

export function attachLimiter(nodeKey: string, stats: () => LimiterStats): void {
  stateOf(nodeKey).limiterStats = stats;
}

export function listNodeStates(): NodeManagementState[] {
  return [...states.entries()].map(([nodeKey, state]) => ({
    nodeKey,
    lastSuccessAt: state.lastSuccessAt,
    lastFailureAt: state.lastFailureAt,
    lastProblem: state.lastProblem,
    limiter: state.limiterStats?.(),
  }));
}

/** For tests and for the clusters module when a node is removed. */
export function forgetNode(nodeKey: string): void {
  states.delete(nodeKey);
}
