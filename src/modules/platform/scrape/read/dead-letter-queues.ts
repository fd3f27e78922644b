// The dead-letter and expiry queues of many clusters as the scrape last counted them (queue_total.dead_letter, set
// from the brokers' address settings): the fleet's dead-letter screen pages them here and asks the brokers for the
// rest. And the grid's key of named queues of one cluster, for a redrive of several at once. One statement each.
import type { Database } from '@/base/db/database.ts';
import { containing } from '@/base/db/like-pattern.ts';
import type { DeadLetterKind } from './dead-letter-status.ts';

export const DEAD_LETTER_SORT_FIELDS = ['messageCount', 'queueName', 'address', 'scrapedAt'] as const;
type DeadLetterSortField = (typeof DEAD_LETTER_SORT_FIELDS)[number];

export interface DeadLetterQuery {
  readonly q?: string | undefined;
  readonly sort: { readonly field: DeadLetterSortField; readonly direction: 'asc' | 'desc' };
  readonly page: number;
  readonly pageSize: number;
}

const SORT_COLUMNS: Record<DeadLetterSortField, string> = {
  messageCount: 'message_count',
  queueName: 'queue_name',
  address: 'address',
  scrapedAt: 'scraped_at',
};

export interface DeadLetterQueue {
  readonly clusterId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly kind: DeadLetterKind | null;
  /** The cluster total as last scraped. */
  readonly messageCount: number;
  readonly scrapedAt: string;
}

interface DeadLetterRecord {
  cluster_id: string;
  address: string;
  queue_name: string;
  routing_type: string;
  kind: DeadLetterKind | null;
  message_count: string;
  scraped_at: Date;
}

/** A page of the dead-letter and expiry queues of the clusters named (internal queues left out). */
export async function readDeadLetterQueues(
  db: Database,
  clusterIds: readonly string[],
  query: DeadLetterQuery,
): Promise<{ items: DeadLetterQueue[]; total: number }> {
  const params: unknown[] = [clusterIds];
  let where = 'cluster_id = ANY($1::uuid[]) AND dead_letter AND NOT internal';
  if (query.q) {
    params.push(containing(query.q));
    where += ` AND (queue_name ILIKE $2 OR address ILIKE $2)`;
  }
  const direction = query.sort.direction === 'desc' ? 'DESC' : 'ASC';
  const [rows, counted] = await Promise.all([
    db.query<DeadLetterRecord>(
      `SELECT cluster_id, address, queue_name, routing_type, message_count, scraped_at,
              (SELECT min(d.kind) FROM scrape_dead_letter_address d
                WHERE d.cluster_id = t.cluster_id AND d.address = t.address) AS kind
         FROM queue_total t WHERE ${where}
        ORDER BY ${SORT_COLUMNS[query.sort.field]} ${direction}, queue_name, cluster_id, address, routing_type
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_total t WHERE ${where}`, params),
  ]);
  return {
    total: counted[0]?.n ?? 0,
    items: rows.map((row) => ({
      clusterId: row.cluster_id,
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      kind: row.kind,
      messageCount: Number(row.message_count),
      scrapedAt: row.scraped_at.toISOString(),
    })),
  };
}

export interface NamedQueue {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly deadLetter: boolean;
}

/** The grid's key of each named queue of the cluster that some node listed (queue names are unique per broker). */
export async function queuesNamed(
  db: Database,
  clusterId: string,
  names: readonly string[],
): Promise<Map<string, NamedQueue>> {
  const rows = await db.query<{ address: string; queue_name: string; routing_type: string; dead_letter: boolean }>(
    `SELECT address, queue_name, routing_type, dead_letter FROM queue_total
      WHERE cluster_id = $1 AND queue_name = ANY($2::text[]) ORDER BY queue_name, address, routing_type`,
    [clusterId, names],
  );
  const named = new Map<string, NamedQueue>();
  for (const row of rows) {
    if (named.has(row.queue_name)) continue;
    named.set(row.queue_name, {
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      deadLetter: row.dead_letter,
    });
  }
  return named;
}
