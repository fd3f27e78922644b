// The queue grid (spec: Cross-node aggregation): queue_snapshot grouped by (address, queue name, routing type),
// one cell per node, totals over logical nodes, nodesPresent and nodesTotal. A primary and its backup share a
// NodeID and count once: of their cells the serving member's (else the newest) is the one counted. A stale node
// keeps its last numbers, flagged, and is never dropped. A fixed number of statements per page whatever the queue
// count: the grouped, sorted page with its total (beside the node count and the sweeps), then the cells of that
// page's queues.
import type { Database } from '@/server/db/database.ts';
import type { QueueMetrics } from './queue-rows.ts';
import { staleNodesOf } from './scrape-read.ts';

export const QUEUE_GRID_SORT_FIELDS = [
  'queueName',
  'address',
  'messageCount',
  'consumerCount',
  'deliveringCount',
  'messagesAdded',
  'nodesPresent',
  'scrapedAt',
] as const;
export type QueueGridSortField = (typeof QUEUE_GRID_SORT_FIELDS)[number];

const SORT_COLUMNS: Record<QueueGridSortField, string> = {
  queueName: 'queue_name',
  address: 'address',
  messageCount: 'message_count',
  consumerCount: 'consumer_count',
  deliveringCount: 'delivering_count',
  messagesAdded: 'messages_added',
  nodesPresent: 'nodes_present',
  scrapedAt: 'scraped_at',
};

export interface QueueGridCell extends QueueMetrics {
  readonly nodeId: string;
  readonly brokerName: string | null;
  /** The logical node (shared NodeID) the cell belongs to. */
  readonly logicalNode: string;
  readonly serving: boolean;
  /** This cell is the one its logical node contributes to the totals. */
  readonly counted: boolean;
  readonly paused: boolean | null;
  readonly scrapedAt: string;
  readonly stale: boolean;
}

export interface QueueGridRow extends QueueMetrics {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  /** Logical nodes that list the queue, and logical nodes of the cluster. */
  readonly nodesPresent: number;
  readonly nodesTotal: number;
  /** Paused on any node. */
  readonly paused: boolean;
  /** Some counted cell is stale: the totals hold old numbers. */
  readonly stale: boolean;
  /** The newest listing that wrote any of the counted cells. */
  readonly scrapedAt: string;
  readonly cells: QueueGridCell[];
}

export interface QueueGridQuery {
  readonly clusterId: string;
  /** Part of the queue or address name, any case. */
  readonly q?: string;
  /** Exactly this queue name (the detail view). */
  readonly queueName?: string;
  readonly sort: { readonly field: QueueGridSortField; readonly direction: 'asc' | 'desc' };
  readonly page: number;
  readonly pageSize: number;
}

/** Every cell of the cluster's matching queues, with its logical node and whether it counts towards the totals. */
const CELLS = `
  WITH nodes AS (
    SELECT id, broker_name, serving, coalesce(broker_node_id, 'node:' || id::text) AS logical
      FROM cluster_node WHERE cluster_id = $1
  )
  SELECT s.node_id, n.broker_name, n.logical, n.serving, s.address, s.queue_name, s.routing_type,
         s.message_count, s.consumer_count, s.delivering_count, s.messages_added, s.messages_acked,
         s.messages_expired, s.paused, s.scraped_at,
         row_number() OVER (PARTITION BY s.address, s.queue_name, s.routing_type, n.logical
                            ORDER BY n.serving DESC, s.scraped_at DESC) = 1 AS counted
    FROM queue_snapshot s JOIN nodes n ON n.id = s.node_id
   WHERE s.cluster_id = $1
     AND ($2::text IS NULL OR s.queue_name ILIKE $2 OR s.address ILIKE $2)
     AND ($3::text IS NULL OR s.queue_name = $3)`;

const pageSql = (sort: QueueGridQuery['sort']) => `
  WITH cells AS (${CELLS}),
  grid AS (
    SELECT address, queue_name, routing_type,
           sum(message_count)::float8 AS message_count, sum(consumer_count)::float8 AS consumer_count,
           sum(delivering_count)::float8 AS delivering_count, sum(messages_added)::float8 AS messages_added,
           sum(messages_acked)::float8 AS messages_acked, sum(messages_expired)::float8 AS messages_expired,
           count(*)::int AS nodes_present, max(scraped_at) AS scraped_at
      FROM cells WHERE counted
     GROUP BY address, queue_name, routing_type
  )
  SELECT *, count(*) OVER ()::int AS total FROM grid
   ORDER BY ${SORT_COLUMNS[sort.field]} ${sort.direction === 'desc' ? 'DESC' : 'ASC'}, queue_name, address, routing_type
   LIMIT $4 OFFSET $5`;

interface GridRecord {
  address: string;
  queue_name: string;
  routing_type: string;
  message_count: number;
  consumer_count: number;
  delivering_count: number;
  messages_added: number;
  messages_acked: number;
  messages_expired: number;
  nodes_present: number;
  scraped_at: Date;
  total: number;
}

interface CellRecord {
  node_id: string;
  broker_name: string | null;
  logical: string;
  serving: boolean;
  address: string;
  queue_name: string;
  routing_type: string;
  message_count: string;
  consumer_count: number;
  delivering_count: string;
  messages_added: string;
  messages_acked: string;
  messages_expired: string;
  paused: boolean | null;
  scraped_at: Date;
  counted: boolean;
}

const keyOf = (row: { address: string; queue_name: string; routing_type: string }) =>
  `${row.routing_type}\u0000${row.address}\u0000${row.queue_name}`;

/** `q` as an ILIKE pattern that matches the text anywhere, its own wildcards taken literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export async function readQueueGrid(
  db: Database,
  query: QueueGridQuery,
  now: Date = new Date(),
): Promise<{ items: QueueGridRow[]; total: number }> {
  const filters = [query.clusterId, query.q ? containsPattern(query.q) : null, query.queueName ?? null];
  const [page, nodesTotal, isStaleNode] = await Promise.all([
    db.query<GridRecord>(pageSql(query.sort), [...filters, query.pageSize, (query.page - 1) * query.pageSize]),
    db.query<{ n: number }>(
      `SELECT count(DISTINCT coalesce(broker_node_id, 'node:' || id::text))::int AS n FROM cluster_node
        WHERE cluster_id = $1`,
      [query.clusterId],
    ),
    staleNodesOf(db.prisma, query.clusterId, now),
  ]);
  if (page.length === 0) {
    // Past the last page the window count has no row to ride on: the first page's says how many there are.
    const first = query.page > 1 ? await db.query<GridRecord>(pageSql(query.sort), [...filters, 1, 0]) : [];
    return { items: [], total: first[0]?.total ?? 0 };
  }
  const total = page[0]?.total ?? 0;
  const names = [...new Set(page.map((row) => row.queue_name))];
  const cells = await db.query<CellRecord>(
    `${CELLS} AND s.queue_name = ANY($4::text[]) ORDER BY n.logical, s.node_id`,
    [...filters, names],
  );
  const cellsByKey = new Map<string, QueueGridCell[]>();
  for (const cell of cells) {
    const list = cellsByKey.get(keyOf(cell)) ?? [];
    list.push({
      nodeId: cell.node_id,
      brokerName: cell.broker_name,
      logicalNode: cell.logical,
      serving: cell.serving,
      counted: cell.counted,
      messageCount: Number(cell.message_count),
      consumerCount: cell.consumer_count,
      deliveringCount: Number(cell.delivering_count),
      messagesAdded: Number(cell.messages_added),
      messagesAcked: Number(cell.messages_acked),
      messagesExpired: Number(cell.messages_expired),
      paused: cell.paused,
      scrapedAt: cell.scraped_at.toISOString(),
      stale: isStaleNode(cell.node_id),
    });
    cellsByKey.set(keyOf(cell), list);
  }
  return {
    total,
    items: page.map((row) => {
      const rowCells = cellsByKey.get(keyOf(row)) ?? [];
      const counted = rowCells.filter((cell) => cell.counted);
      return {
        address: row.address,
        queueName: row.queue_name,
        routingType: row.routing_type,
        messageCount: row.message_count,
        consumerCount: row.consumer_count,
        deliveringCount: row.delivering_count,
        messagesAdded: row.messages_added,
        messagesAcked: row.messages_acked,
        messagesExpired: row.messages_expired,
        nodesPresent: row.nodes_present,
        nodesTotal: nodesTotal[0]?.n ?? 0,
        paused: rowCells.some((cell) => cell.paused === true),
        stale: counted.some((cell) => cell.stale),
        scrapedAt: row.scraped_at.toISOString(),
        cells: rowCells,
      };
    }),
  };
}
