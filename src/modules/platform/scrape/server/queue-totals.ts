// Per-queue totals (queue_total, ADR 0010), kept by the persist step so a grid page reads one row per queue. Each
// refresh groups the cells of the queues it names (or of the whole cluster) exactly as the grid always counted
// them: one cell per logical node, the serving member's, else the newest. Refreshes of one cluster take turns
// (a transaction lock), so a refresh always starts after the previous one committed and sees its cells: two
// nodes persisted at once can never leave a total that misses one of them. A queue is a dead-letter (or expiry)
// queue when its address is one the brokers' address settings name as such (dead-letter-settings.ts), never by its
// name: until the settings are read, nothing is marked.
import { lockInTransaction, type Queryable } from '@/base/advisory-lock.ts';
import { startingWith } from '@/base/db/like-pattern.ts';
import type { QueueKey } from '../read/queue-trends.ts';

/** Artemis's own plumbing: store-and-forward queues of cluster bridges and other internal queues. */
const INTERNAL_ADDRESS_PREFIX = '$.artemis.internal.';

const cells = (keyed: boolean) => `
  SELECT s.node_id, s.address, s.queue_name, s.routing_type, s.message_count, s.consumer_count,
         s.delivering_count, s.messages_added, s.messages_acked, s.messages_expired, s.messages_killed, s.in_rate, s.out_rate,
         s.depth_rate, s.paused, s.internal, s.scraped_at,
         row_number() OVER (PARTITION BY s.address, s.queue_name, s.routing_type, n.logical_node
                            ORDER BY n.serving DESC, s.scraped_at DESC) = 1 AS counted
    FROM queue_snapshot s
    JOIN cluster_logical_node n ON n.node_id = s.node_id
    ${keyed ? 'JOIN keys k ON k.queue_name = s.queue_name AND k.address = s.address AND k.routing_type = s.routing_type' : ''}
   WHERE s.cluster_id = $1`;

const refreshSql = (keyed: boolean) => `
WITH keys AS (
  SELECT DISTINCT * FROM unnest($2::text[], $3::text[], $4::text[]) AS k(address, queue_name, routing_type)
),
cells AS (${cells(keyed)}),
totals AS (
  SELECT $1::uuid AS cluster_id, address, queue_name, routing_type,
         coalesce(sum(message_count) FILTER (WHERE counted), 0) AS message_count,
         coalesce(sum(consumer_count) FILTER (WHERE counted), 0) AS consumer_count,
         coalesce(sum(delivering_count) FILTER (WHERE counted), 0) AS delivering_count,
         coalesce(sum(messages_added) FILTER (WHERE counted), 0) AS messages_added,
         coalesce(sum(messages_acked) FILTER (WHERE counted), 0) AS messages_acked,
         coalesce(sum(messages_expired) FILTER (WHERE counted), 0) AS messages_expired,
         sum(in_rate) FILTER (WHERE counted) AS in_rate,
         sum(out_rate) FILTER (WHERE counted) AS out_rate,
         sum(depth_rate) FILTER (WHERE counted) AS depth_rate,
         count(*) FILTER (WHERE counted)::int AS nodes_present,
         array_agg(node_id ORDER BY node_id) FILTER (WHERE counted) AS counted_nodes,
         coalesce(bool_or(paused), false) AS paused,
         coalesce(bool_or(internal), false) OR address LIKE $5 AS internal,
         address IN (SELECT d.address FROM scrape_dead_letter_address d WHERE d.cluster_id = $1) AS dead_letter,
         max(scraped_at) FILTER (WHERE counted) AS scraped_at,
         coalesce(sum(messages_killed) FILTER (WHERE counted), 0) AS messages_killed
    FROM cells
   GROUP BY address, queue_name, routing_type
),
written AS (
  INSERT INTO queue_total AS t (cluster_id, address, queue_name, routing_type, message_count, consumer_count,
                                delivering_count, messages_added, messages_acked, messages_expired, in_rate,
                                out_rate, depth_rate, nodes_present, counted_nodes, paused, internal, dead_letter,
                                scraped_at, messages_killed)
  SELECT * FROM totals
  ON CONFLICT (cluster_id, queue_name, address, routing_type) DO UPDATE SET
    message_count = EXCLUDED.message_count, consumer_count = EXCLUDED.consumer_count,
    delivering_count = EXCLUDED.delivering_count, messages_added = EXCLUDED.messages_added,
    messages_acked = EXCLUDED.messages_acked, messages_expired = EXCLUDED.messages_expired,
    messages_killed = EXCLUDED.messages_killed, in_rate = EXCLUDED.in_rate, out_rate = EXCLUDED.out_rate, depth_rate = EXCLUDED.depth_rate,
    nodes_present = EXCLUDED.nodes_present, counted_nodes = EXCLUDED.counted_nodes, paused = EXCLUDED.paused,
    internal = EXCLUDED.internal, dead_letter = EXCLUDED.dead_letter, scraped_at = EXCLUDED.scraped_at
  -- An unchanged queue is not written again (most of a large cluster between two sweeps).
  WHERE (t.message_count, t.consumer_count, t.delivering_count, t.messages_added, t.messages_acked,
         t.messages_expired, t.messages_killed, t.in_rate, t.out_rate, t.depth_rate, t.nodes_present, t.counted_nodes, t.paused,
         t.internal, t.dead_letter, t.scraped_at)
        IS DISTINCT FROM
        (EXCLUDED.message_count, EXCLUDED.consumer_count, EXCLUDED.delivering_count, EXCLUDED.messages_added,
         EXCLUDED.messages_acked, EXCLUDED.messages_expired, EXCLUDED.messages_killed, EXCLUDED.in_rate, EXCLUDED.out_rate,
         EXCLUDED.depth_rate, EXCLUDED.nodes_present, EXCLUDED.counted_nodes, EXCLUDED.paused, EXCLUDED.internal,
         EXCLUDED.dead_letter, EXCLUDED.scraped_at)
  RETURNING 1
),
gone AS (
  DELETE FROM queue_total t
   WHERE t.cluster_id = $1
     ${keyed ? 'AND EXISTS (SELECT 1 FROM keys k WHERE k.queue_name = t.queue_name AND k.address = t.address AND k.routing_type = t.routing_type)' : ''}
     AND NOT EXISTS (SELECT 1 FROM totals x
                      WHERE x.queue_name = t.queue_name AND x.address = t.address AND x.routing_type = t.routing_type)
  RETURNING 1
)
SELECT (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM gone)::int AS removed`;

export interface TotalsRefresh {
  readonly written: number;
  readonly removed: number;
}

/**
 * Recomputes the totals of the queues named (every queue of the cluster when `keys` is undefined: after a
 * complete listing, or when which member of a pair serves changed). Call inside the persisting transaction.
 */
/** `client`: a pg client inside a transaction (the lock is the transaction's). */
export async function refreshQueueTotals(
  client: Queryable,
  clusterId: string,
  keys?: readonly QueueKey[],
): Promise<TotalsRefresh> {
  if (keys?.length === 0) return { written: 0, removed: 0 };
  await lockInTransaction(client, 'scrape.queue-total', clusterId);
  const list = keys ?? [];
  const result = await client.query<TotalsRefresh>(refreshSql(keys !== undefined), [
    clusterId,
    list.map((key) => key.address),
    list.map((key) => key.queueName),
    list.map((key) => key.routingType),
    startingWith(INTERNAL_ADDRESS_PREFIX),
  ]);
  return result.rows[0] ?? { written: 0, removed: 0 };
}
