// Persisting one node's queue listing: a single set-based statement upserts queue_snapshot from arrays
// (INSERT … SELECT FROM unnest … ON CONFLICT DO UPDATE), appends the seven metrics of every written row to
// metric_sample and rolls them into the row's minute of metric_minute, and counts the rows whose values differ from what was stored (the `queues` signal fires only
// then). Tier C, when its listing was complete, then removes the node's rows its listing no longer had.
import type { PoolClient } from 'pg';
import type { QueueRow } from './queue-rows.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('scrape');

const UPSERT_ROWS = `
WITH incoming AS (
  SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::int[], $9::bigint[], $10::bigint[],
                       $11::bigint[], $12::bigint[], $13::boolean[], $14::boolean[], $15::boolean[], $16::boolean[],
                       $18::bigint[])
    AS t(address, queue_name, routing_type, message_count, consumer_count, delivering_count, messages_added,
         messages_acked, messages_expired, paused, durable, temporary, internal, messages_killed)
),
changed AS (
  SELECT count(*)::int AS n
    FROM incoming i
    LEFT JOIN queue_snapshot s
      ON s.node_id = $2 AND s.address = i.address AND s.queue_name = i.queue_name AND s.routing_type = i.routing_type
   WHERE s.id IS NULL
      OR (s.message_count, s.consumer_count, s.delivering_count, s.messages_added, s.messages_acked,
          s.messages_expired, s.messages_killed, s.paused, s.durable, s.temporary)
         IS DISTINCT FROM
         (i.message_count, i.consumer_count, i.delivering_count, i.messages_added, i.messages_acked,
          i.messages_expired, i.messages_killed, i.paused, i.durable, i.temporary)
),
-- The cells as they were before this listing (every CTE sees the table as it was): where the counters rose from.
previous AS (
  SELECT s.id, s.scraped_at, s.messages_added, s.messages_acked
    FROM incoming i
    JOIN queue_snapshot s
      ON s.node_id = $2 AND s.address = i.address AND s.queue_name = i.queue_name AND s.routing_type = i.routing_type
),
upserted AS (
  INSERT INTO queue_snapshot (cluster_id, node_id, scraped_at, seen_in, address, queue_name, routing_type,
                              message_count, consumer_count, delivering_count, messages_added, messages_acked,
                              messages_expired, paused, durable, temporary, internal, messages_killed)
  SELECT $1, $2, $3, $17, i.* FROM incoming i
  ON CONFLICT (node_id, address, queue_name, routing_type) DO UPDATE SET
    message_count = EXCLUDED.message_count, consumer_count = EXCLUDED.consumer_count,
    delivering_count = EXCLUDED.delivering_count, messages_added = EXCLUDED.messages_added,
    messages_acked = EXCLUDED.messages_acked, messages_expired = EXCLUDED.messages_expired,
    messages_killed = EXCLUDED.messages_killed,
    paused = EXCLUDED.paused, durable = EXCLUDED.durable, temporary = EXCLUDED.temporary,
    internal = EXCLUDED.internal, scraped_at = EXCLUDED.scraped_at, seen_in = EXCLUDED.seen_in,
    -- Rates across the two listings (see the queue_total migration): smoothed, never negative.
    in_rate = scrape_smoothed_rate(queue_snapshot.in_rate, queue_snapshot.messages_added, EXCLUDED.messages_added,
                                   extract(epoch FROM EXCLUDED.scraped_at - queue_snapshot.scraped_at)::float8),
    out_rate = scrape_smoothed_rate(queue_snapshot.out_rate, queue_snapshot.messages_acked, EXCLUDED.messages_acked,
                                    extract(epoch FROM EXCLUDED.scraped_at - queue_snapshot.scraped_at)::float8),
    depth_rate = scrape_smoothed_rate(queue_snapshot.depth_rate, queue_snapshot.message_count, EXCLUDED.message_count,
                                      extract(epoch FROM EXCLUDED.scraped_at - queue_snapshot.scraped_at)::float8, true)
  -- A listing requested earlier but persisted later (tiers overlap) must not overwrite newer numbers.
  WHERE queue_snapshot.scraped_at <= EXCLUDED.scraped_at
  RETURNING id, message_count, consumer_count, delivering_count, messages_added, messages_acked, messages_expired,
            messages_killed
)`;

const SAMPLES = `,
sampled AS (
  INSERT INTO metric_sample (queue_id, ts, message_count, consumer_count, delivering_count, messages_added,
                             messages_acked, messages_expired, messages_killed)
  SELECT id, $3, message_count, consumer_count, delivering_count, messages_added, messages_acked, messages_expired,
         messages_killed
    FROM upserted
  ON CONFLICT DO NOTHING
  RETURNING 1
),
-- The sample's minute in the rollup (ADR 12): the first sample of a minute makes the row, later ones move its last
-- values (a sample older than the row's last, from an overlapping tier, is left out).
rolled AS (
  INSERT INTO metric_minute AS m (queue_id, minute, samples, first_ts, last_ts, first_message_count,
                                  first_messages_added, first_messages_acked, message_count,
                                  consumer_count, delivering_count, messages_added, messages_acked, messages_expired,
                                  messages_killed, added_increase, acked_increase, span_start)
  SELECT u.id, date_bin('1 minute', $3::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00'), 1, $3, $3,
         u.message_count, u.messages_added, u.messages_acked, u.message_count, u.consumer_count, u.delivering_count,
         u.messages_added, u.messages_acked, u.messages_expired, u.messages_killed,
         -- The rise since the sample before (a counter that went down is a restart: it counts from zero).
         CASE WHEN p.id IS NULL THEN 0 WHEN u.messages_added < p.messages_added THEN u.messages_added
              ELSE u.messages_added - p.messages_added END,
         CASE WHEN p.id IS NULL THEN 0 WHEN u.messages_acked < p.messages_acked THEN u.messages_acked
              ELSE u.messages_acked - p.messages_acked END,
         coalesce(p.scraped_at, $3)
    FROM upserted u LEFT JOIN previous p ON p.id = u.id
  ON CONFLICT (queue_id, minute) DO UPDATE SET
    samples = m.samples + 1, last_ts = EXCLUDED.last_ts, message_count = EXCLUDED.message_count,
    consumer_count = greatest(m.consumer_count, EXCLUDED.consumer_count),
    delivering_count = EXCLUDED.delivering_count, messages_added = EXCLUDED.messages_added,
    messages_acked = EXCLUDED.messages_acked, messages_expired = EXCLUDED.messages_expired,
    messages_killed = EXCLUDED.messages_killed,
    added_increase = m.added_increase + EXCLUDED.added_increase,
    acked_increase = m.acked_increase + EXCLUDED.acked_increase
  WHERE m.last_ts < EXCLUDED.last_ts
  RETURNING 1
)`;

const UPSERT_WITH_SAMPLES = `${UPSERT_ROWS}${SAMPLES}
SELECT (SELECT n FROM changed) AS changed,
       (SELECT count(*) FROM upserted)::int AS upserted,
       (SELECT count(*) FROM sampled)::int AS sampled`;

/** The same upsert without the samples: for a listing whose day has no partition (older than any kept day). */
const UPSERT_WITHOUT_SAMPLES = `${UPSERT_ROWS}
SELECT (SELECT n FROM changed) AS changed, (SELECT count(*) FROM upserted)::int AS upserted, 0 AS sampled`;

// PostgreSQL's "no partition of relation … found for row" (check_violation); the only check these inserts can fail.
const NO_PARTITION = '23514';

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
  const parameters = [
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
    column('messagesKilled'),
  ];
  type Counts = { changed: number; upserted: number; sampled: number };
  // A listing dated before the oldest day partition (a clock step, a listing older than the retention) keeps its
  // rows but not its samples: the savepoint lets the rest of the persist step go on after the refused insert.
  await client.query('SAVEPOINT queue_samples');
  let result;
  try {
    result = await client.query<Counts>(UPSERT_WITH_SAMPLES, parameters);
    await client.query('RELEASE SAVEPOINT queue_samples');
  } catch (error) {
    if ((error as { code?: string }).code !== NO_PARTITION) throw error;
    await client.query('ROLLBACK TO SAVEPOINT queue_samples');
    log.warn(
      { nodeId: target.nodeId, listedAt: target.listedAt.toISOString() },
      'samples refused: no metric partition holds that day (older than the oldest kept day); the queue rows are kept',
    );
    result = await client.query<Counts>(UPSERT_WITHOUT_SAMPLES, parameters);
  }
  const [counts] = result.rows;
  return counts
    ? { changed: counts.changed, upserted: counts.upserted, sampled: counts.sampled }
    : { changed: 0, upserted: 0, sampled: 0 };
}

/** Tier C after a complete listing: every row of the node not written by this or a newer listing is gone. */
export async function removeUnlisted(client: PoolClient, nodeId: string, listedAt: Date): Promise<number> {
  const result = await client.query('DELETE FROM queue_snapshot WHERE node_id = $1 AND scraped_at < $2', [
    nodeId,
    listedAt,
  ]);
  return result.rowCount ?? 0;
}

/** The node's totals over its non-internal queues as they stand after this listing: one node_metric_sample row. */
export async function sampleNodeTotals(client: PoolClient, target: QueueListingTarget): Promise<void> {
  await client.query(
    `INSERT INTO node_metric_sample (node_id, ts, cluster_id, queues, message_count, consumer_count, delivering_count,
                                     in_rate, out_rate)
     SELECT $1, $2, $3, count(*)::int, coalesce(sum(message_count), 0), coalesce(sum(consumer_count), 0),
            coalesce(sum(delivering_count), 0), sum(in_rate), sum(out_rate)
       FROM queue_snapshot WHERE node_id = $1 AND internal IS NOT TRUE
     ON CONFLICT (node_id, ts) DO NOTHING`,
    [target.nodeId, target.listedAt, target.clusterId],
  );
}

/** The keys of a listing's rows, for refreshing their totals. */
export const keysOf = (rows: readonly QueueRow[]) =>
  rows.map((row) => ({ address: row.address, queueName: row.name, routingType: row.routingType }));
