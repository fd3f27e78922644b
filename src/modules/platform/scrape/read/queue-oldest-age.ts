// How old the oldest message of each queue of a cluster is at least, from what the scrape keeps (the listing has no
// FirstMessageTimestamp, and alerting makes no broker call): a cell holding D messages whose added counter reads A
// still holds message A − D + 1 (first in, first out), and that message was on the queue by the first moment the
// per-minute rollup saw the counter pass A − D. Only minutes since the look-back and since the counter's last reset
// are read, so the answer is a lower bound capped near the look-back: "at least this old", never older than it is
// (priorities, selectors or scheduled messages can make the true oldest older still). One statement.
import type { Database } from '@/base/db/database.ts';

export interface QueueOldestAge {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  /** Seconds the oldest message has at least been on the queue (the largest over the serving cells); 0 when empty. */
  readonly ageSeconds: number;
}

interface AgeRow {
  address: string;
  queue_name: string;
  routing_type: string;
  age_seconds: number | null;
  empty: boolean;
}

/** Queues of the cluster with a serving cell, except those with messages but no minute in the look-back. */
export async function readQueueOldestAges(
  db: Database,
  clusterId: string,
  window: { readonly from: Date; readonly to: Date },
): Promise<QueueOldestAge[]> {
  const rows = await db.query<AgeRow>(
    `WITH cells AS (
       SELECT s.id, s.address, s.queue_name, s.routing_type, s.message_count,
              s.messages_added - s.message_count AS before_oldest
         FROM queue_snapshot s JOIN cluster_logical_node n ON n.node_id = s.node_id
        WHERE s.cluster_id = $1 AND n.serving),
     minutes AS (
       SELECT mm.queue_id, mm.minute, mm.first_ts, mm.last_ts, mm.first_messages_added, mm.messages_added,
              lag(mm.messages_added) OVER (PARTITION BY mm.queue_id ORDER BY mm.minute) AS previous_added
         FROM metric_minute mm
        WHERE mm.queue_id IN (SELECT id FROM cells WHERE message_count > 0)
          AND mm.minute >= date_bin('1 minute', $2::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00')
          AND mm.minute <= $3),
     -- The newest minute whose counter went down (a broker restart or a failover): older minutes count other messages.
     resets AS (
       SELECT queue_id, max(minute) AS minute FROM minutes
        WHERE messages_added < first_messages_added OR first_messages_added < previous_added
        GROUP BY queue_id),
     per_cell AS (
       SELECT c.id,
              min(CASE WHEN m.first_messages_added > c.before_oldest AND m.minute IS DISTINCT FROM r.minute
                       THEN m.first_ts
                       WHEN m.messages_added > c.before_oldest THEN m.last_ts END) AS on_queue_by
         FROM cells c JOIN minutes m ON m.queue_id = c.id LEFT JOIN resets r ON r.queue_id = c.id
        WHERE r.minute IS NULL OR m.minute >= r.minute
        GROUP BY c.id)
     SELECT c.address, c.queue_name, c.routing_type, bool_and(c.message_count = 0) AS empty,
            max(greatest(0, extract(epoch FROM $3::timestamptz - p.on_queue_by)))::float8 AS age_seconds
       FROM cells c LEFT JOIN per_cell p ON p.id = c.id
      GROUP BY c.address, c.queue_name, c.routing_type`,
    [clusterId, window.from, window.to],
  );
  const ages: QueueOldestAge[] = [];
  for (const row of rows) {
    if (row.age_seconds === null && !row.empty) continue;
    ages.push({
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      ageSeconds: row.age_seconds ?? 0,
    });
  }
  return ages;
}
