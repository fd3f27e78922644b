// Persisting one node's queue listing: a single set-based statement upserts queue_snapshot from arrays
// (INSERT … SELECT FROM unnest … ON CONFLICT DO UPDATE), appends the six metrics of every written row to
// metric_sample, and counts the rows whose values differ from what was stored (the `queues` signal fires only
// then). Tier C, when its listing was complete, then removes the node's rows its listing no longer had.
import type { PoolClient } from 'pg';
import type { QueueRow } from './queue-rows.ts';

const UPSERT_WITH_SAMPLES = `
WITH incoming AS (
  SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::int[], $9::bigint[], $10::bigint[],
                       $11::bigint[], $12::bigint[], $13::boolean[], $14::boolean[], $15::boolean[], $16::boolean[])
    AS t(address, queue_name, routing_type, message_count, consumer_count, delivering_count, messages_added,
         messages_acked, messages_expired, paused, durable, temporary, internal)
),
changed AS (
  SELECT count(*)::int AS n
    FROM incoming i
    LEFT JOIN queue_snapshot s
      ON s.node_id = $2 AND s.address = i.address AND s.queue_name = i.queue_name AND s.routing_type = i.routing_type
   WHERE s.id IS NULL
      OR (s.message_count, s.consumer_count, s.delivering_count, s.messages_added, s.messages_acked,
          s.messages_expired, s.paused, s.durable, s.temporary)
         IS DISTINCT FROM
         (i.message_count, i.consumer_count, i.delivering_count, i.messages_added, i.messages_acked,
          i.messages_expired, i.paused, i.durable, i.temporary)
),
upserted AS (
  INSERT INTO queue_snapshot (cluster_id, node_id, scraped_at, seen_in, address, queue_name, routing_type,
                              message_count, consumer_count, delivering_count, messages_added, messages_acked,
                              messages_expired, paused, durable, temporary, internal)
  SELECT $1, $2, $3, $17, i.* FROM incoming i
  ON CONFLICT (node_id, address, queue_name, routing_type) DO UPDATE SET
    message_count = EXCLUDED.message_count, consumer_count = EXCLUDED.consumer_count,
    delivering_count = EXCLUDED.delivering_count, messages_added = EXCLUDED.messages_added,
    messages_acked = EXCLUDED.messages_acked, messages_expired = EXCLUDED.messages_expired,
    paused = EXCLUDED.paused, durable = EXCLUDED.durable, temporary = EXCLUDED.temporary,
    internal = EXCLUDED.internal, scraped_at = EXCLUDED.scraped_at, seen_in = EXCLUDED.seen_in
  -- A listing requested earlier but persisted later (tiers overlap) must not overwrite newer numbers.
  WHERE queue_snapshot.scraped_at <= EXCLUDED.scraped_at
  RETURNING id, message_count, consumer_count, delivering_count, messages_added, messages_acked, messages_expired
),
sampled AS (
  INSERT INTO metric_sample (queue_id, ts, message_count, consumer_count, delivering_count, messages_added,
                             messages_acked, messages_expired)
  SELECT id, $3, message_count, consumer_count, delivering_count, messages_added, messages_acked, messages_expired
    FROM upserted
  ON CONFLICT DO NOTHING
  RETURNING 1
)
SELECT (SELECT n FROM changed) AS changed,
       (SELECT count(*) FROM upserted)::int AS upserted,
       (SELECT count(*) FROM sampled)::int AS sampled`;

export interface QueueListingTarget {
  readonly clusterId: string;
  readonly nodeId: string;
  readonly tier: 'B' | 'C';
  /** When the listing was requested: stored as scraped_at and as the samples' ts. */
  readonly listedAt: Date;
}

export interface QueuePersistResult {
  /** New rows plus rows whose values changed. */
  readonly changed: number;
  readonly upserted: number;
  readonly sampled: number;
  readonly removed: number;
}

export async function upsertQueueRows(
  client: PoolClient,
  target: QueueListingTarget,
  rows: readonly QueueRow[],
): Promise<Omit<QueuePersistResult, 'removed'>> {
  if (rows.length === 0) return { changed: 0, upserted: 0, sampled: 0 };
  const column = <K extends keyof QueueRow>(key: K) => rows.map((row) => row[key]);
  const result = await client.query<{ changed: number; upserted: number; sampled: number }>(UPSERT_WITH_SAMPLES, [
    target.clusterId,
    target.nodeId,
    target.listedAt,
    column('address'),
    column('name'),
    column('routingType'),
    column('messageCount'),
    column('consumerCount'),
    column('deliveringCount'),
    column('messagesAdded'),
    column('messagesAcked'),
    column('messagesExpired'),
    column('paused'),
    column('durable'),
    column('temporary'),
    column('internal'),
    target.tier,
  ]);
  const [counts] = result.rows;
  return counts ?? { changed: 0, upserted: 0, sampled: 0 };
}

/** Tier C after a complete listing: every row of the node not written by this or a newer listing is gone. */
export async function removeUnlisted(client: PoolClient, nodeId: string, listedAt: Date): Promise<number> {
  const result = await client.query('DELETE FROM queue_snapshot WHERE node_id = $1 AND scraped_at < $2', [
    nodeId,
    listedAt,
  ]);
  return result.rowCount ?? 0;
}
