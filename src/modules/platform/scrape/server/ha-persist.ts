// Tier A's write: the polled HA columns and the last management success or failure on cluster_node, compared
// with the row as it was (read under FOR UPDATE in the same short transaction) to decide which signals to send.
import type { PoolClient } from 'pg';
import { haChange, type HaChange, type PersistedNodeState, type PolledHaState } from './ha-change.ts';

async function previousState(client: PoolClient, nodeId: string): Promise<PersistedNodeState | undefined> {
  const result = await client.query<PersistedNodeState>(
    `SELECT active, started, backup, replica_sync AS "replicaSync", broker_node_id AS "brokerNodeId",
            last_success_at AS "lastSuccessAt", last_failure_at AS "lastFailureAt"
       FROM cluster_node WHERE id = $1 FOR UPDATE`,
    [nodeId],
  );
  return result.rows[0];
}

const NO_CHANGE: HaChange = { health: false, topology: false };

export async function persistHaPoll(
  client: PoolClient,
  nodeId: string,
  polledAt: Date,
  polled: PolledHaState,
): Promise<HaChange> {
  const previous = await previousState(client, nodeId);
  if (!previous) return NO_CHANGE; // the node was removed while we polled it
  await client.query(
    `UPDATE cluster_node
        SET active = $2, started = $3, backup = $4, replica_sync = $5,
            broker_node_id = COALESCE(NULLIF($6, ''), broker_node_id),
            ha_polled_at = $7, last_success_at = $7
      WHERE id = $1`,
    [nodeId, polled.active, polled.started, polled.backup, polled.replicaSync, polled.nodeId, polledAt],
  );
  return haChange(previous, polled);
}

/** The poll failed: HA columns keep their last values (consumers judge them by ha_polled_at). */
export async function persistHaFailure(
  client: PoolClient,
  nodeId: string,
  failedAt: Date,
  error: string,
): Promise<HaChange> {
  const previous = await previousState(client, nodeId);
  if (!previous) return NO_CHANGE;
  await client.query('UPDATE cluster_node SET last_failure_at = $2, last_error = $3 WHERE id = $1', [
    nodeId,
    failedAt,
    error,
  ]);
  return haChange(previous, undefined);
}
