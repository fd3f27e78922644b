// The recent trend of a page of queues for the grid: per queue, over the last `windowMs` in `buckets` steps, the
// depth and the in/out rates summed over the serving nodes (a backup's cell is not counted twice), from
// metric_sample. Counter resets count as restarts, so no rate is negative. One statement per page, whatever its
// queues.
import type { Database } from '@/base/db/database.ts';

export interface QueueKey {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
}

export interface QueueTrend {
  /** Bucket values, oldest first; null where no sample fell. */
  readonly depth: Array<number | null>;
  readonly inRate: Array<number | null>;
  readonly outRate: Array<number | null>;
}

interface Row {
  address: string;
  queue_name: string;
  routing_type: string;
  bucket_index: number;
  depth: number | null;
  in_rate: number | null;
  out_rate: number | null;
}

export const trendKeyOf = (key: QueueKey) => `${key.routingType}\u0000${key.address}\u0000${key.queueName}`;

export async function readQueueTrends(
  db: Database,
  clusterId: string,
  keys: readonly QueueKey[],
  options: { readonly windowMs: number; readonly buckets: number; readonly now?: Date } = {
    windowMs: 15 * 60_000,
    buckets: 15,
  },
): Promise<Map<string, QueueTrend>> {
  const trends = new Map<string, QueueTrend>();
  if (keys.length === 0) return trends;
  const now = options.now ?? new Date();
  const from = new Date(now.getTime() - options.windowMs);
  const stepMs = Math.ceil(options.windowMs / options.buckets);
  const rows = await db.query<Row>(
    `WITH wanted AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::text[]) AS w(address, queue_name, routing_type)),
     cells AS (
       SELECT qs.id, qs.address, qs.queue_name, qs.routing_type
         FROM queue_snapshot qs
         JOIN wanted w USING (address, queue_name, routing_type)
         JOIN cluster_logical_node ln ON ln.node_id = qs.node_id
        WHERE qs.cluster_id = $1 AND ln.serving),
     samples AS (
       SELECT ms.queue_id, ms.ts, ms.message_count,
              extract(epoch FROM ms.ts - lag(ms.ts) OVER w) AS seconds,
              CASE WHEN ms.messages_added < lag(ms.messages_added) OVER w THEN ms.messages_added
                   ELSE ms.messages_added - lag(ms.messages_added) OVER w END AS added,
              CASE WHEN ms.messages_acked < lag(ms.messages_acked) OVER w THEN ms.messages_acked
                   ELSE ms.messages_acked - lag(ms.messages_acked) OVER w END AS acked
         FROM metric_sample ms
        WHERE ms.queue_id IN (SELECT id FROM cells)
          AND ms.ts >= $5::timestamptz - make_interval(secs => $6::double precision / 1000) AND ms.ts <= $7
       WINDOW w AS (PARTITION BY ms.queue_id ORDER BY ms.ts)),
     per_cell AS (
       SELECT s.queue_id,
              floor(extract(epoch FROM s.ts - $5::timestamptz) * 1000 / $6)::int AS bucket_index,
              avg(s.message_count) AS depth,
              sum(s.added) / nullif(sum(s.seconds) FILTER (WHERE s.added IS NOT NULL), 0) AS in_rate,
              sum(s.acked) / nullif(sum(s.seconds) FILTER (WHERE s.acked IS NOT NULL), 0) AS out_rate
         FROM samples s
        WHERE s.ts >= $5
        GROUP BY s.queue_id, bucket_index)
     SELECT c.address, c.queue_name, c.routing_type, p.bucket_index,
            sum(p.depth)::float8 AS depth, sum(p.in_rate)::float8 AS in_rate, sum(p.out_rate)::float8 AS out_rate
       FROM per_cell p JOIN cells c ON c.id = p.queue_id
      GROUP BY c.address, c.queue_name, c.routing_type, p.bucket_index`,
    [
      clusterId,
      keys.map((key) => key.address),
      keys.map((key) => key.queueName),
      keys.map((key) => key.routingType),
      from,
      stepMs,
      now,
    ],
  );
  const empty = () => Array.from({ length: options.buckets }, () => null as number | null);
  for (const row of rows) {
    const key = trendKeyOf({ address: row.address, queueName: row.queue_name, routingType: row.routing_type });
    const trend = trends.get(key) ?? { depth: empty(), inRate: empty(), outRate: empty() };
    const index = Math.min(options.buckets - 1, Math.max(0, row.bucket_index));
    trend.depth[index] = row.depth === null ? null : Math.round(row.depth);
    trend.inRate[index] = row.in_rate;
    trend.outRate[index] = row.out_rate;
    trends.set(key, trend);
  }
  return trends;
}
