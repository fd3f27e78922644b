// How much the depth of a few named queues of a cluster changed over a window, for alert conditions that watch a
// handful of queues (the dead-letter queues) on every tier tick without reading every queue's window. The same
// measure as readQueueHealthInputs: over the serving cells, the depth at the start of the window from the first
// minute of the per-minute rollup holding it, and at its end the cells' last listing. One statement.
import type { Database } from '@/base/db/database.ts';

export interface QueueGrowthInput {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  /** Samples of the busiest serving cell in the window. */
  readonly samples: number;
  readonly depthAtStart: number | null;
  readonly depthAtEnd: number | null;
}

interface GrowthRow {
  address: string;
  queue_name: string;
  routing_type: string;
  samples: number;
  depth_start: number | null;
  depth_end: number | null;
}

/** The named queues with a minute in the window (a queue without one is left out: nothing to judge from). */
export async function readQueueGrowth(
  db: Database,
  clusterId: string,
  queueNames: readonly string[],
  window: { readonly from: Date; readonly to: Date },
): Promise<QueueGrowthInput[]> {
  if (queueNames.length === 0) return [];
  const rows = await db.query<GrowthRow>(
    `WITH cells AS (
       SELECT s.id, s.address, s.queue_name, s.routing_type, s.message_count
         FROM queue_snapshot s JOIN cluster_logical_node n ON n.node_id = s.node_id
        WHERE s.cluster_id = $1 AND n.serving AND s.queue_name = ANY($4::text[])),
     per_cell AS (
       SELECT mm.queue_id, sum(mm.samples)::int AS samples,
              (min(ARRAY[extract(epoch FROM mm.minute)::float8, mm.first_message_count::float8]))[2] AS depth_start
         FROM metric_minute mm
        WHERE mm.queue_id IN (SELECT id FROM cells)
          AND mm.minute >= date_bin('1 minute', $2::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00') - interval '1 minute'
          AND mm.minute <= $3 AND mm.last_ts >= $2
        GROUP BY mm.queue_id)
     SELECT c.address, c.queue_name, c.routing_type, max(p.samples)::int AS samples,
            sum(p.depth_start)::float8 AS depth_start, sum(c.message_count)::float8 AS depth_end
       FROM per_cell p JOIN cells c ON c.id = p.queue_id
      GROUP BY c.address, c.queue_name, c.routing_type`,
    [clusterId, window.from, window.to, queueNames],
  );
  return rows.map((row) => ({
    address: row.address,
    queueName: row.queue_name,
    routingType: row.routing_type,
    samples: row.samples,
    depthAtStart: row.depth_start,
    depthAtEnd: row.depth_end,
  }));
}
