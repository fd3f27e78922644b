// Each queue's depth and consumers now, from queue_total (kept by the writer's totals refresh, ADR 0010).
import type { Database } from '@/base/db/database.ts';

export interface QueueCount {
  readonly queueName: string;
  readonly depth: number;
  readonly consumers: number;
}

/**
 * Each queue's depth and consumers now (its totals over the counted cells), one row per queue name, in one small
 * read: what a threshold on depth or consumers needs, without the window the rates take.
 */
export function readQueueCounts(db: Database, clusterId: string): Promise<QueueCount[]> {
  return db.query<QueueCount>(
    `SELECT queue_name AS "queueName", message_count::float8 AS depth, consumer_count::float8 AS consumers
       FROM queue_total WHERE cluster_id = $1`,
    [clusterId],
  );
}
