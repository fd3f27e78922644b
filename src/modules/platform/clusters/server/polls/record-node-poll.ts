// The one writer of a node's poll columns (the polled HA state, the last management success or failure), called by
// the scrape's tier A inside its own short transaction: the row is read under FOR UPDATE and compared with what was
// polled, and the answer says which signals to send.
import type { PoolClient } from 'pg';
import { haChange, type NodePollChange, type PersistedNodeState, type PolledHaState } from './poll-change.ts';

async function previousState(client: PoolClient, nodeId: string): Promise<PersistedNodeState | undefined> {
  const result = await client.query<PersistedNodeState>(
    `SELECT active, started, backup, replica_sync AS "replicaSync", broker_node_id AS "brokerNodeId",
            last_success_at AS "lastSuccessAt", last_failure_at AS "lastFailureAt"
       FROM cluster_node WHERE id = $1 FOR UPDATE`,
    [nodeId],
  );
  return result.rows[0];
}

const NO_CHANGE: NodePollChange = { health: false, topology: false };

export async function recordNodePoll(
  client: PoolClient,
  nodeId: string,
  polledAt: Date,
  polled: PolledHaState,
): Promise<NodePollChange> {
  const previous = await previousState(client, nodeId);
  if (!previous) return NO_CHANGE; // the node was removed while we polled it
  await client.query(
    `UPDATE cluster_node
        SET active = $2, started = $3, backup = $4, replica_sync = $5,
            broker_node_id = COALESCE(NULLIF($6, ''), broker_node_id),
            ha_polled_at = $7, last_success_at = $7,
            management_address = COALESCE(NULLIF($8, ''), management_address),
            notification_address = COALESCE(NULLIF($9, ''), notification_address)
      WHERE id = $1`,
    [
      nodeId,
      polled.active,
      polled.started,
      polled.backup,
      polled.replicaSync,
      polled.nodeId,
      polledAt,
      polled.managementAddress ?? '',
      polled.notificationAddress ?? '',
    ],
  );
  return haChange(previous, polled);
}

/** The poll failed: HA columns keep their last values (consumers judge them by ha_polled_at). */
export async function recordNodePollFailure(
  client: PoolClient,
  nodeId: string,
  failedAt: Date,
  error: string,
): Promise<NodePollChange> {
  const previous = await previousState(client, nodeId);
  if (!previous) return NO_CHANGE;
  await client.query('UPDATE cluster_node SET last_failure_at = $2, last_error = $3 WHERE id = $1', [
    nodeId,
    failedAt,
    error,
  ]);
  return haChange(previous, undefined);
}
