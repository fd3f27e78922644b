// The queues a broker flagged with CONSUMER_SLOW since a time (consumer health reads it: the broker's own word
// outranks any verdict derived from numbers). One statement.
import type { Pool } from 'pg';

export async function slowConsumerQueues(
  pool: Pool,
  clusterId: string,
  since: Date,
): Promise<Map<string, { readonly at: string; readonly consumerId: string | null; readonly node: string | null }>> {
  const result = await pool.query<{ queue: string; at: Date; consumer_id: string | null; broker_name: string | null }>(
    `SELECT DISTINCT ON (queue) queue, broker_time AS at, consumer_id, broker_name
       FROM broker_event
      WHERE cluster_id = $1 AND kind = 'CONSUMER_SLOW' AND broker_time >= $2 AND queue IS NOT NULL
      ORDER BY queue, broker_time DESC`,
    [clusterId, since],
  );
  return new Map(
    result.rows.map((row) => [
      row.queue,
      { at: row.at.toISOString(), consumerId: row.consumer_id, node: row.broker_name },
    ]),
  );
}
