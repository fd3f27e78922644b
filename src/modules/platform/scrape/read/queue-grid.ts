// The queue grid (spec: Cross-node aggregation): one row per (address, queue name, routing type) with one cell
// per node, totals over logical nodes, nodesPresent and nodesTotal. A primary and its backup share a NodeID and
// count once: of their cells the serving member's (else the newest) is the one counted. A stale node keeps its
// last numbers, flagged, and is never dropped. The totals are kept per queue by the persist step (queue_total,
// queue-totals.ts), so a page reads its rows instead of grouping the cluster: four statements per page whatever
// the queue count, beside the cluster's last dead-letter settings read (and one for the kinds of the page's
// dead-letter queues when it shows any).
import type { Database } from '@/base/db/database.ts';
import { containing } from '@/base/db/like-pattern.ts';
import { deadLetterStatusesOf, type DeadLetterKind, type DeadLetterSettingsStatus } from './dead-letter-status.ts';
import type { QueueMetrics } from './queue-metrics.ts';
import { staleNodesOf } from './sweeps.ts';

export const QUEUE_GRID_SORT_FIELDS = [
  'queueName',
  'address',
  'messageCount',
  'consumerCount',
  'deliveringCount',
  'messagesAdded',
  'messagesAcked',
  'messagesExpired',
  'messagesKilled',
  'inRate',
  'outRate',
  'depthRate',
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
  messagesAcked: 'messages_acked',
  messagesExpired: 'messages_expired',
  messagesKilled: 'messages_killed',
  inRate: 'in_rate',
  outRate: 'out_rate',
  depthRate: 'depth_rate',
  nodesPresent: 'nodes_present',
  scrapedAt: 'scraped_at',
};

/** The depth grows by more than this many messages a second (smoothed): the row is marked as growing. */
const GROWING_DEPTH_RATE = 0.01;

interface QueueGridCell extends QueueMetrics {
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
  /** Messages added, acknowledged, and the depth's change per second (smoothed over about a minute). */
  readonly inRate: number | null;
  readonly outRate: number | null;
  readonly depthRate: number | null;
  /** The backlog grows: the depth rises faster than GROWING_DEPTH_RATE. */
  readonly growing: boolean;
  /** Paused on any node. */
  readonly paused: boolean;
  /** Artemis's internal plumbing (store-and-forward) or Flotilla's own. */
  readonly internal: boolean;
  /** A dead-letter or expiry queue: its address is one the brokers' address settings name as such. */
  readonly deadLetter: boolean;
  /** Which (a dead-letter address that is also an expiry address counts as dead-letter); null for other queues. */
  readonly deadLetterKind: DeadLetterKind | null;
  /** Some counted cell is stale: the totals hold old numbers. */
  readonly stale: boolean;
  /** The newest listing that wrote any of the counted cells. */
  readonly scrapedAt: string;
  readonly cells: QueueGridCell[];
}

export interface QueueGridFilters {
  /** Part of the queue or address name, any case. */
  readonly q?: string;
  /** Exactly this queue name (the detail view). */
  readonly queueName?: string;
  /** Only queues with these names (a verdict filter resolved elsewhere). */
  readonly queueNames?: readonly string[];
  readonly consumers?: 'with' | 'without';
  readonly paused?: boolean;
  readonly stale?: boolean;
  /** Only dead-letter and expiry queues (true) or none of them (false). */
  readonly deadLetter?: boolean;
  readonly growing?: boolean;
  /** Internal queues are left out unless asked for. */
  readonly includeInternal?: boolean;
}

export interface QueueGridQuery extends QueueGridFilters {
  readonly clusterId: string;
  readonly sort: { readonly field: QueueGridSortField; readonly direction: 'asc' | 'desc' };
  readonly page: number;
  readonly pageSize: number;
}

/** The cells of the named queues, with their logical node and whether each counts towards the totals. */
const CELLS = `
  WITH nodes AS (
    SELECT node_id AS id, broker_name, serving, logical_node AS logical
      FROM cluster_logical_node WHERE cluster_id = $1
  )
  SELECT s.node_id, n.broker_name, n.logical, n.serving, s.address, s.queue_name, s.routing_type,
         s.message_count, s.consumer_count, s.delivering_count, s.messages_added, s.messages_acked,
         s.messages_expired, s.messages_killed, s.paused, s.scraped_at,
         row_number() OVER (PARTITION BY s.address, s.queue_name, s.routing_type, n.logical
                            ORDER BY n.serving DESC, s.scraped_at DESC) = 1 AS counted
    FROM queue_snapshot s JOIN nodes n ON n.id = s.node_id
   WHERE s.cluster_id = $1 AND s.queue_name = ANY($2::text[])
   ORDER BY n.logical, s.node_id`;

/** The WHERE clause over queue_total and its parameters, numbered from 1 ($1 is the cluster). */
function whereOf(query: QueueGridQuery, staleNodes: readonly string[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [query.clusterId];
  const where = ['cluster_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (query.q) add((p) => `(queue_name ILIKE ${p} OR address ILIKE ${p})`, containing(query.q));
  if (query.queueName !== undefined) add((p) => `queue_name = ${p}`, query.queueName);
  if (query.queueNames) add((p) => `queue_name = ANY(${p}::text[])`, query.queueNames);
  if (query.consumers) where.push(query.consumers === 'with' ? 'consumer_count > 0' : 'consumer_count = 0');
  if (query.paused !== undefined) where.push(query.paused ? 'paused' : 'NOT paused');
  if (query.deadLetter !== undefined) where.push(query.deadLetter ? 'dead_letter' : 'NOT dead_letter');
  if (query.growing !== undefined)
    add((p) => (query.growing ? `depth_rate > ${p}` : `coalesce(depth_rate, 0) <= ${p}`), GROWING_DEPTH_RATE);
  if (query.stale !== undefined)
    add((p) => (query.stale ? `counted_nodes && ${p}::uuid[]` : `NOT (counted_nodes && ${p}::uuid[])`), staleNodes);
  // The detail view finds a queue whatever it is.
  if (!query.includeInternal && query.queueName === undefined) where.push('NOT internal');
  return { sql: where.join(' AND '), params };
}

interface TotalRecord {
  address: string;
  queue_name: string;
  routing_type: string;
  message_count: string;
  consumer_count: string;
  delivering_count: string;
  messages_added: string;
  messages_acked: string;
  messages_expired: string;
  messages_killed: string;
  in_rate: number | null;
  out_rate: number | null;
  depth_rate: number | null;
  nodes_present: number;
  counted_nodes: string[];
  paused: boolean;
  internal: boolean;
  dead_letter: boolean;
  scraped_at: Date;
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
  messages_killed: string;
  paused: boolean | null;
  scraped_at: Date;
  counted: boolean;
}

const keyOf = (row: { address: string; queue_name: string; routing_type: string }) =>
  `${row.routing_type}\u0000${row.address}\u0000${row.queue_name}`;

const cellOf = (cell: CellRecord, isStaleNode: (nodeId: string) => boolean): QueueGridCell => ({
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
  messagesKilled: Number(cell.messages_killed),
  paused: cell.paused,
  scrapedAt: cell.scraped_at.toISOString(),
  stale: isStaleNode(cell.node_id),
});

/** The kind of each dead-letter address named ('dead-letter' first when an address is both). */
async function deadLetterKindsOf(
  db: Database,
  clusterId: string,
  addresses: readonly string[],
): Promise<Map<string, DeadLetterKind>> {
  if (addresses.length === 0) return new Map();
  const rows = await db.query<{ address: string; kind: DeadLetterKind }>(
    `SELECT address, min(kind) AS kind FROM scrape_dead_letter_address
      WHERE cluster_id = $1 AND address = ANY($2::text[]) GROUP BY address`,
    [clusterId, addresses],
  );
  return new Map(rows.map((row) => [row.address, row.kind]));
}

/**
 * A page of the grid from queue_total (kept by the persist step, ADR 0010) and the cells of that page's queues:
 * the nodes with their staleness first, then the page and its count side by side, then the cells. The cost of a
 * page does not grow with the number of queues beyond one indexed scan of the cluster's totals.
 */
export async function readQueueGrid(
  db: Database,
  query: QueueGridQuery,
  now: Date = new Date(),
): Promise<{ items: QueueGridRow[]; total: number; deadLetterSettings: DeadLetterSettingsStatus }> {
  const [nodes, isStaleNode, statuses] = await Promise.all([
    db.query<{ node_id: string; logical_node: string }>(
      'SELECT node_id, logical_node FROM cluster_logical_node WHERE cluster_id = $1',
      [query.clusterId],
    ),
    staleNodesOf(db.prisma, query.clusterId, now),
    deadLetterStatusesOf(db, [query.clusterId]),
  ]);
  const deadLetterSettings = statuses.get(query.clusterId) as DeadLetterSettingsStatus;
  const staleNodes = nodes.map((node) => node.node_id).filter(isStaleNode);
  const nodesTotal = new Set(nodes.map((node) => node.logical_node)).size;
  const { sql: where, params } = whereOf(query, staleNodes);
  const direction = query.sort.direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
  const [page, counted] = await Promise.all([
    db.query<TotalRecord>(
      `SELECT * FROM queue_total WHERE ${where}
        ORDER BY ${SORT_COLUMNS[query.sort.field]} ${direction}, queue_name, address, routing_type
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM queue_total WHERE ${where}`, params),
  ]);
  const total = counted[0]?.n ?? 0;
  if (page.length === 0) return { items: [], total, deadLetterSettings };
  const names = [...new Set(page.map((row) => row.queue_name))];
  const deadLetterAddresses = [...new Set(page.filter((row) => row.dead_letter).map((row) => row.address))];
  const [cells, kinds] = await Promise.all([
    db.query<CellRecord>(CELLS, [query.clusterId, names]),
    deadLetterKindsOf(db, query.clusterId, deadLetterAddresses),
  ]);
  const cellsByKey = new Map<string, QueueGridCell[]>();
  for (const cell of cells) {
    const list = cellsByKey.get(keyOf(cell)) ?? [];
    list.push(cellOf(cell, isStaleNode));
    cellsByKey.set(keyOf(cell), list);
  }
  const staleSet = new Set(staleNodes);
  return {
    total,
    deadLetterSettings,
    items: page.map((row) => ({
      address: row.address,
      queueName: row.queue_name,
      routingType: row.routing_type,
      messageCount: Number(row.message_count),
      consumerCount: Number(row.consumer_count),
      deliveringCount: Number(row.delivering_count),
      messagesAdded: Number(row.messages_added),
      messagesAcked: Number(row.messages_acked),
      messagesExpired: Number(row.messages_expired),
      messagesKilled: Number(row.messages_killed),
      inRate: row.in_rate,
      outRate: row.out_rate,
      depthRate: row.depth_rate,
      growing: (row.depth_rate ?? 0) > GROWING_DEPTH_RATE,
      nodesPresent: row.nodes_present,
      nodesTotal,
      paused: row.paused,
      internal: row.internal,
      deadLetter: row.dead_letter,
      deadLetterKind: row.dead_letter ? (kinds.get(row.address) ?? null) : null,
      stale: row.counted_nodes.some((nodeId) => staleSet.has(nodeId)),
      scrapedAt: row.scraped_at.toISOString(),
      cells: cellsByKey.get(keyOf(row)) ?? [],
    })),
  };
}
