// Fleet-wide reads of the queue totals (queue_total) for screens that span clusters: one summary per cluster
// (queues, backlog, dead-letter depth, growing backlogs) and a queue search across clusters. Internal queues are
// left out of both. One statement each, whatever the number of clusters.
import type { Database } from '@/base/db/database.ts';
import { containing } from '@/base/db/like-pattern.ts';

export interface ClusterQueueSummary {
  readonly queues: number;
  /** Messages in every queue but dead-letter and expiry ones. */
  readonly backlog: number;
  /** Messages in dead-letter and expiry queues. */
  readonly deadLetterDepth: number;
  readonly growing: number;
  readonly scrapedAt: string | null;
}

const EMPTY: ClusterQueueSummary = { queues: 0, backlog: 0, deadLetterDepth: 0, growing: 0, scrapedAt: null };

export async function queueSummariesOf(
  db: Database,
  clusterIds: readonly string[],
): Promise<Map<string, ClusterQueueSummary>> {
  const rows = await db.query<{
    cluster_id: string;
    queues: number;
    backlog: string;
    dead_letter_depth: string;
    growing: number;
    scraped_at: Date | null;
  }>(
    `SELECT cluster_id, count(*)::int AS queues,
            coalesce(sum(message_count) FILTER (WHERE NOT dead_letter), 0) AS backlog,
            coalesce(sum(message_count) FILTER (WHERE dead_letter), 0) AS dead_letter_depth,
            count(*) FILTER (WHERE depth_rate > 0.01)::int AS growing,
            max(scraped_at) AS scraped_at
       FROM queue_total WHERE cluster_id = ANY($1::uuid[]) AND NOT internal
      GROUP BY cluster_id`,
    [clusterIds],
  );
  const result = new Map(clusterIds.map((clusterId) => [clusterId, EMPTY]));
  for (const row of rows) {
    result.set(row.cluster_id, {
      queues: row.queues,
      backlog: Number(row.backlog),
      deadLetterDepth: Number(row.dead_letter_depth),
      growing: row.growing,
      scrapedAt: row.scraped_at?.toISOString() ?? null,
    });
  }
  return result;
}

export interface FleetQueue {
  readonly clusterId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly messageCount: number;
  readonly consumerCount: number;
}

const RELEVANCE = 'CASE WHEN lower(queue_name) = lower($3::text) THEN 0 ELSE 1 END';
const SEARCH_ORDER: Record<string, string> = {
  relevance: RELEVANCE,
  queueName: 'queue_name',
  address: 'address',
  messageCount: 'message_count',
  consumerCount: 'consumer_count',
};

/**
 * Queues of the clusters named whose name or address contains `q` (any case). `sort` is a field, `-field` for
 * descending; `relevance` (an exact name first, then A–Z) by default; the name and cluster break ties.
 */
export async function searchFleetQueues(
  db: Database,
  clusterIds: readonly string[],
  q: string,
  options: { sort?: string; page: number; pageSize: number },
): Promise<{ items: FleetQueue[]; total: number }> {
  const { page, pageSize } = options;
  const descending = options.sort?.startsWith('-') === true;
  const column = SEARCH_ORDER[(options.sort ?? 'relevance').replace(/^-/, '')];
  if (!column) throw new Error(`unknown sort ${String(options.sort)}`);
  const order = `${column} ${descending ? 'DESC' : 'ASC'}, ${RELEVANCE}, queue_name, cluster_id`;
  const pattern = containing(q);
  const where = `cluster_id = ANY($1::uuid[]) AND NOT internal AND (queue_name ILIKE $2 OR address ILIKE $2)`;
  const [rows, counted] = await Promise.all([
    db.query<{
      cluster_id: string;
      address: string;
      queue_name: string;
      routing_type: string;
      message_count: string;
      consumer_count: string;
    }>(
      `SELECT cluster_id, address, queue_name, routing_type, message_count, consumer_count FROM queue_total
        WHERE ${where}
        ORDER BY ${order} LIMIT $4 OFFSET $5`,
      [clusterIds, pattern, q, pageSize, (page - 1) * pageSize],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_total WHERE ${where}`, [clusterIds, pattern]),
  ]);
  return {
    total: counted[0]?.n ?? 0,
    items: rows.map((row) => ({
      clusterId: row.cluster_id,
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      messageCount: Number(row.message_count),
      consumerCount: Number(row.consumer_count),
    })),
  };
}
