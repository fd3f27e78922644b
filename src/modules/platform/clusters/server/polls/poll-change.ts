// What a node's poll changed compared with its persisted row: reachability and HA columns feed the
// `health` signal, HA roles (Active, Backup) and the node id the `topology` signal. Signals go out only on change.
export interface PersistedNodeState {
  readonly active: boolean | null;
  readonly started: boolean | null;
  readonly backup: boolean | null;
  readonly replicaSync: boolean | null;
  readonly brokerNodeId: string | null;
  readonly lastSuccessAt: Date | null;
  readonly lastFailureAt: Date | null;
}

export interface PolledHaState {
  readonly active: boolean;
  readonly started: boolean;
  readonly backup: boolean;
  readonly replicaSync: boolean;
  readonly nodeId: string;
  /** The broker's management and notification addresses (read in the same poll); kept to refuse sends to them. */
  readonly managementAddress?: string | undefined;
  readonly notificationAddress?: string | undefined;
}

function wasReachable(state: PersistedNodeState): boolean | undefined {
  if (!state.lastSuccessAt && !state.lastFailureAt) return undefined;
  if (!state.lastFailureAt) return true;
  if (!state.lastSuccessAt) return false;
  return state.lastSuccessAt > state.lastFailureAt;
}

export interface NodePollChange {
  readonly health: boolean;
  readonly topology: boolean;
}

/** `polled` undefined means the poll failed (the node is unreachable now). */
export function haChange(previous: PersistedNodeState, polled: PolledHaState | undefined): NodePollChange {
  const reachableBefore = wasReachable(previous);
  if (!polled) return { health: reachableBefore !== false, topology: reachableBefore !== false };
  const roleChanged =
    previous.active !== polled.active ||
    previous.backup !== polled.backup ||
    (polled.nodeId !== '' && previous.brokerNodeId !== polled.nodeId);
  const stateChanged =
    roleChanged || previous.started !== polled.started || previous.replicaSync !== polled.replicaSync;
  return { health: stateChanged || reachableBefore !== true, topology: roleChanged || reachableBefore !== true };
}
