// The queues GET /metrics labels (telemetry): every cluster's queue totals (queue_total, the grid's totals row),
// internal queues left out, narrowed by name globs and cut at a cap — the deepest kept, so a cut never hides the
// backlog that matters. Two statements whatever the fleet's size: the page and the count of what matched.
import type { Database } from '@/base/db/database.ts';
import { globToLike } from '@/base/db/like-pattern.ts';

export interface ExposedQueueTotals {
  readonly clusterId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly messageCount: number;
  readonly consumerCount: number;
  readonly deliveringCount: number;
  readonly inRate: number | null;
  readonly outRate: number | null;
  readonly deadLetter: boolean;
}

/** Up to `cap` queues whose name matches one of `globs` (every queue without globs), and how many matched. */
export async function readExposedQueues(
  db: Database,
  options: { readonly globs: readonly string[]; readonly cap: number },
): Promise<{ queues: ExposedQueueTotals[]; matched: number }> {
  const patterns = options.globs.map(globToLike);
  const where = `NOT internal AND (cardinality($1::text[]) = 0 OR queue_name LIKE ANY($1::text[]))`;
  const [queues, counted] = await Promise.all([
    db.query<ExposedQueueTotals>(
      `SELECT cluster_id AS "clusterId", address, queue_name AS "queueName", routing_type AS "routingType",
              message_count::float8 AS "messageCount", consumer_count::float8 AS "consumerCount",
              delivering_count::float8 AS "deliveringCount", in_rate AS "inRate", out_rate AS "outRate",
              dead_letter AS "deadLetter"
         FROM queue_total WHERE ${where}
        ORDER BY message_count DESC, cluster_id, queue_name, address, routing_type
        LIMIT $2`,
      [patterns, options.cap],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_total WHERE ${where}`, [patterns]),
  ]);
  return { queues, matched: counted[0]?.n ?? 0 };
}
