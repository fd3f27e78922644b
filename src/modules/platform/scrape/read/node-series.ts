// A cluster's metric history per node and in total, from node_metric_sample (a node's totals over its queues at
// each listing), downsampled on the server to at most `points` buckets: depth, consumers, in delivery and queues as
// bucket averages (consumers and queues as maxima), in/out rates as bucket averages of the summed smoothed rates.
// The cluster total of a bucket is the sum over the nodes with a sample in it. One statement whatever the range.
import type { Database } from '@/base/db/database.ts';
import { bucketMs } from './queue-series.ts';

export interface NodeSeriesPoint {
  readonly t: string;
  readonly depth: number;
  readonly consumers: number;
  readonly delivering: number;
  readonly queues: number;
  readonly inRate: number | null;
  readonly outRate: number | null;
}

export interface NodeSeriesQuery {
  readonly clusterId: string;
  /** One node only; every node of the cluster when absent. */
  readonly nodeId?: string;
  readonly from: Date;
  readonly to: Date;
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
  queues: number;
  in_rate: number | null;
  out_rate: number | null;
}

export async function readNodeSeries(db: Database, query: NodeSeriesQuery) {
  const stepMs = bucketMs(query);
  const rows = await db.query<Row>(
    `SELECT s.node_id, n.broker_name, n.logical_node,
            date_bin(make_interval(secs => $5::double precision / 1000), s.ts, $3::timestamptz) AS bucket,
            avg(s.message_count)::float8 AS depth, max(s.consumer_count)::float8 AS consumers,
            avg(s.delivering_count)::float8 AS delivering, max(s.queues)::float8 AS queues,
            avg(s.in_rate)::float8 AS in_rate, avg(s.out_rate)::float8 AS out_rate
       FROM node_metric_sample s
       JOIN cluster_logical_node n ON n.node_id = s.node_id
      WHERE s.cluster_id = $1 AND ($2::uuid IS NULL OR s.node_id = $2) AND s.ts >= $3 AND s.ts <= $4
      GROUP BY s.node_id, n.broker_name, n.logical_node, bucket
      ORDER BY s.node_id, bucket`,
    [query.clusterId, query.nodeId ?? null, query.from, query.to, stepMs],
  );
  const nodes = new Map<
    string,
    { nodeId: string; brokerName: string | null; logicalNode: string; points: NodeSeriesPoint[] }
  >();
  const totals = new Map<
    number,
    {
      depth: number;
      consumers: number;
      delivering: number;
      queues: number;
      inRate: number | null;
      outRate: number | null;
    }
  >();
  const add = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
  for (const row of rows) {
    const point: NodeSeriesPoint = {
      t: row.bucket.toISOString(),
      depth: Math.round(row.depth),
      consumers: row.consumers,
      delivering: Math.round(row.delivering),
      queues: row.queues,
      inRate: row.in_rate,
      outRate: row.out_rate,
    };
    const node = nodes.get(row.node_id) ?? {
      nodeId: row.node_id,
      brokerName: row.broker_name,
      logicalNode: row.logical_node,
      points: [],
    };
    node.points.push(point);
    nodes.set(row.node_id, node);
    const at = row.bucket.getTime();
    const total = totals.get(at);
    totals.set(
      at,
      total
        ? {
            depth: total.depth + point.depth,
            consumers: total.consumers + point.consumers,
            delivering: total.delivering + point.delivering,
            queues: total.queues + point.queues,
            inRate: add(total.inRate, point.inRate),
            outRate: add(total.outRate, point.outRate),
          }
        : { ...point },
    );
  }
  const total = [...totals.entries()]
    .sort(([a], [b]) => a - b)
    .map(([at, values]) => ({ ...values, t: new Date(at).toISOString() }));
  return { stepMs, nodes: [...nodes.values()], total };
}
