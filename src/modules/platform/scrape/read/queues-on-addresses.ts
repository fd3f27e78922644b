// Which node holds which queue of the addresses a regular expression matches, as the last sweep listed them: where
// a fan-out read (the SQL console's live source) has to look, without listing every node's queues again.
import type { Database } from '@/base/db/database.ts';

export interface NodeQueue {
  readonly nodeId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: 'ANYCAST' | 'MULTICAST';
  readonly messageCount: number;
  readonly scrapedAt: string;
}

/**
 * Each (node, queue) whose address matches `addressRegex` (a PostgreSQL advanced regular expression), internal
 * queues left out, fullest first so that a capped read looks where the messages are; at most `limit` rows and the
 * number there were.
 */
export async function readQueuesOnAddresses(
  db: Database,
  query: { clusterId: string; addressRegex: string; limit: number },
): Promise<{ queues: NodeQueue[]; total: number }> {
  const rows = await db.query<NodeQueue & { total: number }>(
    `SELECT node_id AS "nodeId", address, queue_name AS "queueName", routing_type AS "routingType",
            message_count::float8 AS "messageCount", to_char(scraped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "scrapedAt",
            count(*) OVER ()::int AS total
       FROM queue_snapshot
      WHERE cluster_id = $1 AND address ~ $2 AND internal IS NOT TRUE
      ORDER BY message_count DESC, address, queue_name, node_id
      LIMIT $3`,
    [query.clusterId, query.addressRegex, query.limit],
  );
  return { queues: rows.map(({ total: _total, ...queue }) => queue), total: rows[0]?.total ?? 0 };
}
