// A queue's metric history from metric_sample, per node, downsampled on the server to at most `points` buckets
// (date_bin over the range): depth, consumers and in-delivery as bucket averages (consumers as the maximum), and
// rates per second derived from the counters (added = in, acked = out, expired, killed). A counter that goes down was reset
// (a broker restart, a failover to a backup that counts from its own start): the increase across a reset is taken
// as the new value, so a rate is never negative. One statement whatever the range; ranges with buckets of a minute
// or more read the per-minute rollup (ADR 12) instead of every sample.
import type { Database } from '@/base/db/database.ts';

interface SeriesPoint {
  /** Start of the bucket, ISO 8601. */
  readonly t: string;
  readonly depth: number;
  readonly consumers: number;
  readonly delivering: number;
  /** Messages per second. Null for a bucket whose only sample has no earlier one to compare with. */
  readonly inRate: number | null;
  readonly outRate: number | null;
  readonly expiredRate: number | null;
  /** Messages dead-lettered or dropped per second. */
  readonly killedRate: number | null;
}

interface NodeSeries {
  readonly nodeId: string;
  readonly brokerName: string | null;
  readonly logicalNode: string;
  readonly points: SeriesPoint[];
}

export interface QueueSeriesQuery {
  readonly clusterId: string;
  readonly queueName: string;
  readonly from: Date;
  readonly to: Date;
  /** Most buckets per node (the step is the range divided by it, at least one second). */
  readonly points: number;
}

interface Row {
  node_id: string;
  broker_name: string | null;
  logical_node: string;
  bucket: Date;
  depth: number;
  consumers: number;
  delivering: number;
  in_rate: number | null;
  out_rate: number | null;
  expired_rate: number | null;
  killed_rate: number | null;
}

const MINUTE_MS = 60_000;

/** The bucket width that fits the range into at most `points` buckets, at least a second. */
export const bucketMs = (range: { readonly from: Date; readonly to: Date; readonly points: number }) =>
  Math.max(1_000, Math.ceil((range.to.getTime() - range.from.getTime()) / Math.max(1, range.points)));

const CELLS = `
  SELECT qs.id, qs.node_id, ln.broker_name, ln.logical_node
    FROM queue_snapshot qs
    JOIN cluster_logical_node ln ON ln.node_id = qs.node_id
   WHERE qs.cluster_id = $1 AND qs.queue_name = $2`;

/** Per bucket over the increases (one row per sample or per minute): the series' values. */
const BUCKETS = `
  SELECT c.node_id, c.broker_name, c.logical_node,
         date_bin(make_interval(secs => $5::double precision / 1000), i.ts, $3::timestamptz) AS bucket,
         avg(i.message_count)::float8 AS depth,
         max(i.consumer_count)::float8 AS consumers,
         avg(i.delivering_count)::float8 AS delivering,
         (sum(i.added) / nullif(sum(i.seconds) FILTER (WHERE i.added IS NOT NULL), 0))::float8 AS in_rate,
         (sum(i.acked) / nullif(sum(i.seconds) FILTER (WHERE i.acked IS NOT NULL), 0))::float8 AS out_rate,
         (sum(i.expired) / nullif(sum(i.seconds) FILTER (WHERE i.expired IS NOT NULL), 0))::float8 AS expired_rate,
         (sum(i.killed) / nullif(sum(i.seconds) FILTER (WHERE i.killed IS NOT NULL), 0))::float8 AS killed_rate
    FROM increases i
    JOIN cells c ON c.id = i.queue_id
   GROUP BY c.node_id, c.broker_name, c.logical_node, bucket
   ORDER BY c.node_id, bucket`;

/** An increase of a counter from `before` to `after`: a counter that went down was reset and counts from zero. */
const increase = (after: string, before: string) =>
  `CASE WHEN ${after} < ${before} THEN ${after} ELSE ${after} - ${before} END`;

/** Buckets under a minute: every sample, one sample before the range read too for the first bucket's rates. */
const FROM_SAMPLES = `
  WITH cells AS (${CELLS}),
  samples AS (
    SELECT ms.queue_id, ms.ts, ms.message_count, ms.consumer_count, ms.delivering_count,
           ms.messages_added, ms.messages_acked, ms.messages_expired, ms.messages_killed,
           lag(ms.ts) OVER w AS previous_ts,
           lag(ms.messages_added) OVER w AS previous_added,
           lag(ms.messages_acked) OVER w AS previous_acked,
           lag(ms.messages_expired) OVER w AS previous_expired,
           lag(ms.messages_killed) OVER w AS previous_killed
      FROM metric_sample ms
     WHERE ms.queue_id IN (SELECT id FROM cells)
       AND ms.ts >= $3::timestamptz - make_interval(secs => $5::double precision / 1000) AND ms.ts <= $4
    WINDOW w AS (PARTITION BY ms.queue_id ORDER BY ms.ts)),
  increases AS (
    SELECT queue_id, ts, message_count, consumer_count, delivering_count,
           extract(epoch FROM ts - previous_ts) AS seconds,
           ${increase('messages_added', 'previous_added')} AS added,
           ${increase('messages_acked', 'previous_acked')} AS acked,
           ${increase('messages_expired', 'previous_expired')} AS expired,
           ${increase('messages_killed', 'previous_killed')} AS killed
      FROM samples
     WHERE ts >= $3)
  ${BUCKETS}`;

/**
 * Buckets of a minute or more: the per-minute rollup (ADR 12), a sixtieth of the rows at a 1-second cadence. Each
 * minute's increase runs from the previous minute's last sample (or, for a queue's first minute, from its own
 * first) to its last.
 */
const FROM_MINUTES = `
  WITH cells AS (${CELLS}),
  minutes AS (
    SELECT mm.*, lag(mm.last_ts) OVER w AS previous_ts,
           lag(mm.messages_added) OVER w AS previous_added,
           lag(mm.messages_acked) OVER w AS previous_acked,
           lag(mm.messages_expired) OVER w AS previous_expired,
           lag(mm.messages_killed) OVER w AS previous_killed
      FROM metric_minute mm
     WHERE mm.queue_id IN (SELECT id FROM cells)
       AND mm.minute >= $3::timestamptz - make_interval(secs => $5::double precision / 1000) AND mm.minute <= $4
    WINDOW w AS (PARTITION BY mm.queue_id ORDER BY mm.minute)),
  increases AS (
    SELECT queue_id, minute AS ts, message_count, consumer_count, delivering_count,
           extract(epoch FROM last_ts - coalesce(previous_ts, first_ts)) AS seconds,
           ${increase('messages_added', 'coalesce(previous_added, first_messages_added)')} AS added,
           ${increase('messages_acked', 'coalesce(previous_acked, first_messages_acked)')} AS acked,
           ${increase('messages_expired', 'previous_expired')} AS expired,
           ${increase('messages_killed', 'previous_killed')} AS killed
      FROM minutes
     WHERE minute >= $3)
  ${BUCKETS}`;

export async function readQueueSeries(
  db: Database,
  query: QueueSeriesQuery,
): Promise<{ stepMs: number; nodes: NodeSeries[] }> {
  const stepMs = bucketMs(query);
  const rows = await db.query<Row>(stepMs >= MINUTE_MS ? FROM_MINUTES : FROM_SAMPLES, [
    query.clusterId,
    query.queueName,
    query.from,
    query.to,
    stepMs,
  ]);
  const nodes = new Map<
    string,
    { nodeId: string; brokerName: string | null; logicalNode: string; points: SeriesPoint[] }
  >();
  for (const row of rows) {
    const node = nodes.get(row.node_id) ?? {
      nodeId: row.node_id,
      brokerName: row.broker_name,
      logicalNode: row.logical_node,
      points: [],
    };
    node.points.push({
      t: row.bucket.toISOString(),
      depth: Math.round(row.depth),
      consumers: row.consumers,
      delivering: Math.round(row.delivering),
      inRate: row.in_rate,
      outRate: row.out_rate,
      expiredRate: row.expired_rate,
      killedRate: row.killed_rate,
    });
    nodes.set(row.node_id, node);
  }
  return { stepMs, nodes: [...nodes.values()] };
}
