// What the consumer-health evaluation needs of every queue of a cluster, in two statements whatever the queue
// count: the current totals over the counted cells (queue_total: a primary and its backup count once, as in the
// grid) with the staleness of those cells, and over the window, from the per-minute rollup, the serving cells'
// depth at its start and end and their summed in/out rates from the rises each minute keeps (a counter reset counts
// as a restart: no negative rate). The window starts at the minute holding its start (samples are counted per minute).
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { staleNodesOf } from './sweeps.ts';

export interface QueueHealthInput {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly depth: number;
  readonly consumers: number;
  readonly delivering: number;
  readonly paused: boolean;
  /** Some counted cell's numbers are old (its node is not answering the scrape in time). */
  readonly stale: boolean;
  /** Samples of the busiest serving cell in the window (how much there is to judge from). */
  readonly samples: number;
  readonly depthAtStart: number | null;
  readonly depthAtEnd: number | null;
  /** Messages per second over the window, summed over the serving cells; null with fewer than two samples. */
  readonly inRate: number | null;
  readonly outRate: number | null;
}

interface TotalsRow {
  address: string;
  queue_name: string;
  routing_type: string;
  depth: number;
  consumers: number;
  delivering: number;
  paused: boolean;
  /** The counted cells' node ids, comma-separated (parsing a text[] per row cost more than the rest of the row). */
  node_ids: string;
}

interface WindowRow {
  address: string;
  queue_name: string;
  routing_type: string;
  samples: number;
  depth_start: number | null;
  depth_end: number | null;
  in_rate: number | null;
  out_rate: number | null;
}

const keyOf = (row: { address: string; queue_name: string; routing_type: string }) =>
  `${row.routing_type}\u0000${row.address}\u0000${row.queue_name}`;

export async function readQueueHealthInputs(
  db: Database,
  prisma: PrismaClient,
  clusterId: string,
  window: { readonly from: Date; readonly to: Date },
): Promise<QueueHealthInput[]> {
  const [totals, windowed, isStale] = await Promise.all([
    // The totals kept by the persist step (queue_total, ADR 11): one row per queue.
    db.query<TotalsRow>(
      `SELECT address, queue_name, routing_type, message_count::float8 AS depth,
              consumer_count::float8 AS consumers, delivering_count::float8 AS delivering, paused,
              array_to_string(counted_nodes, ',') AS node_ids
         FROM queue_total WHERE cluster_id = $1`,
      [clusterId],
    ),
    // The window from the per-minute rollup (ADR 12): the minutes whose last sample falls in it. Each minute
    // keeps what its counters rose by since the sample before it and when that span began, so the rates are
    // plain sums, and the depth at the start and end are the first and last minute's (no window functions).
    // A join (not `IN`) lets the planner hash the cells and scan the window's minutes once instead of probing the
    // key per cell; the interval is summed before its one conversion to seconds (extract is numeric, slow per row).
    db.query<WindowRow>(
      `WITH cells AS (
         SELECT s.id, s.address, s.queue_name, s.routing_type, s.message_count
           FROM queue_snapshot s JOIN cluster_logical_node n ON n.node_id = s.node_id
          WHERE s.cluster_id = $1 AND n.serving),
       per_cell AS (
         SELECT mm.queue_id, sum(mm.samples)::int AS samples,
                (array_agg(mm.first_message_count ORDER BY mm.minute))[1]::float8 AS depth_start,
                sum(mm.added_increase)::float8 AS added, sum(mm.acked_increase)::float8 AS acked,
                extract(epoch FROM sum(mm.last_ts - coalesce(mm.span_start, mm.first_ts)))::float8 AS seconds
           FROM metric_minute mm JOIN cells ON cells.id = mm.queue_id
          WHERE mm.minute >= date_bin('1 minute', $2::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00') - interval '1 minute'
            AND mm.minute <= $3 AND mm.last_ts >= $2
          GROUP BY mm.queue_id)
       -- The depth at the end is the cell's last listing (the newest sample, which every window holds).
       SELECT c.address, c.queue_name, c.routing_type, max(p.samples)::int AS samples,
              sum(p.depth_start)::float8 AS depth_start, sum(c.message_count)::float8 AS depth_end,
              sum(p.added / nullif(p.seconds, 0))::float8 AS in_rate,
              sum(p.acked / nullif(p.seconds, 0))::float8 AS out_rate
         FROM per_cell p JOIN cells c ON c.id = p.queue_id
        GROUP BY c.address, c.queue_name, c.routing_type`,
      [clusterId, window.from, window.to],
    ),
    staleNodesOf(prisma, clusterId, window.to),
  ]);
  const byKey = new Map(windowed.map((row) => [keyOf(row), row]));
  return totals.map((row) => {
    const recent = byKey.get(keyOf(row));
    return {
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      depth: row.depth,
      consumers: row.consumers,
      delivering: row.delivering,
      paused: row.paused,
      stale: row.node_ids !== '' && row.node_ids.split(',').some(isStale),
      samples: recent?.samples ?? 0,
      depthAtStart: recent?.depth_start ?? null,
      depthAtEnd: recent?.depth_end ?? null,
      inRate: recent?.in_rate ?? null,
      outRate: recent?.out_rate ?? null,
    };
  });
}
