// Reading stored events: the API's filtered page, a seq range for the stream, and the replay after a Last-Event-ID.
// One column list and one mapping, so the three agree.
import type { Pool } from 'pg';
import { containing } from '@/base/db/like-pattern.ts';
import type { BrokerEventView, ListEventsInput } from './events.schema.ts';

const COLUMNS = `seq, cluster_id, node_id, logical_node, broker_name, kind, address, queue, consumer_id, session_id,
  connection_id, remote_address, user_name, properties, broker_time, received_at, event_id, policy_version,
  sealed_cipher, sealed_key_id, redactions`;

/** How a row is stored: masked under a policy version, its original sealed (rows stored before: neither). */
interface EventStorage {
  readonly eventId: string | null;
  readonly policyVersion: number;
  readonly sealed: { readonly cipher: string; readonly keyId: string } | null;
  readonly redactions: NonNullable<BrokerEventView['redactions']>;
}

/** An event as read, before the content policy: what governEvents turns into what may leave. */
export type StoredEvent = BrokerEventView & { readonly storage: EventStorage };

interface EventRow {
  seq: string;
  cluster_id: string;
  node_id: string;
  logical_node: string;
  broker_name: string | null;
  kind: string;
  address: string | null;
  queue: string | null;
  consumer_id: string | null;
  session_id: string | null;
  connection_id: string | null;
  remote_address: string | null;
  user_name: string | null;
  properties: BrokerEventView['properties'];
  broker_time: Date;
  received_at: Date;
  event_id: string | null;
  policy_version: number;
  sealed_cipher: string | null;
  sealed_key_id: string | null;
  redactions: NonNullable<BrokerEventView['redactions']>;
}

function viewOf(row: EventRow): StoredEvent {
  return {
    seq: Number(row.seq),
    clusterId: row.cluster_id,
    nodeId: row.node_id,
    logicalNode: row.logical_node,
    brokerName: row.broker_name,
    kind: row.kind,
    address: row.address,
    queue: row.queue,
    consumerId: row.consumer_id,
    sessionId: row.session_id,
    connectionId: row.connection_id,
    remoteAddress: row.remote_address,
    user: row.user_name,
    properties: row.properties,
    brokerTime: row.broker_time.toISOString(),
    receivedAt: row.received_at.toISOString(),
    storage: {
      eventId: row.event_id,
      policyVersion: row.policy_version,
      sealed: row.sealed_cipher && row.sealed_key_id ? { cipher: row.sealed_cipher, keyId: row.sealed_key_id } : null,
      redactions: row.redactions,
    },
  };
}

const SORT_COLUMNS = { seq: 'seq', brokerTime: 'broker_time' } as const;

export async function listEvents(pool: Pool, input: ListEventsInput) {
  const conditions = ['cluster_id = $1'];
  const params: unknown[] = [input.clusterId];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  const kinds = (input.kind ?? '').split(',').filter(Boolean);
  if (kinds.length > 0) add((p) => `kind = ANY(${p}::text[])`, kinds);
  if (input.address) add((p) => `address = ${p}`, input.address);
  if (input.queue) add((p) => `queue = ${p}`, input.queue);
  if (input.from) add((p) => `broker_time >= ${p}`, new Date(input.from));
  if (input.to) add((p) => `broker_time < ${p}`, new Date(input.to));
  if (input.seq !== undefined) add((p) => `seq = ${p}`, input.seq);
  if (input.q) {
    add(
      (p) =>
        `concat_ws(' ', kind, address, queue, consumer_id, session_id, connection_id, remote_address, user_name, broker_name) ILIKE ${p}`,
      containing(input.q),
    );
  }
  const where = conditions.join(' AND ');
  const descending = input.sort.startsWith('-');
  const field = (descending ? input.sort.slice(1) : input.sort) as keyof typeof SORT_COLUMNS;
  const direction = descending ? 'DESC' : 'ASC';
  const [page, count, dropped, oldest] = await Promise.all([
    pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM broker_event WHERE ${where}
        ORDER BY ${SORT_COLUMNS[field]} ${direction}, seq ${direction}
        LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}`,
      params,
    ),
    pool.query<{ total: string }>(`SELECT count(*) AS total FROM broker_event WHERE ${where}`, params),
    pool.query<{ dropped: string; last_at: Date }>(
      'SELECT dropped, last_at FROM broker_event_dropped WHERE cluster_id = $1',
      [input.clusterId],
    ),
    pool.query<{ oldest: Date | null }>('SELECT min(received_at) AS oldest FROM broker_event WHERE cluster_id = $1', [
      input.clusterId,
    ]),
  ]);
  return {
    items: page.rows.map(viewOf),
    total: Number(count.rows[0]?.total ?? 0),
    page: input.page,
    pageSize: input.pageSize,
    dropped: Number(dropped.rows[0]?.dropped ?? 0),
    droppedAt: dropped.rows[0]?.last_at.toISOString() ?? null,
    oldestAt: oldest.rows[0]?.oldest?.toISOString() ?? null,
  };
}

/** The events of one commit, announced on the bus as a seq range. */
export async function eventsInRange(pool: Pool, clusterId: string, fromSeq: number, toSeq: number) {
  const result = await pool.query<EventRow>(
    `SELECT ${COLUMNS} FROM broker_event WHERE cluster_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq`,
    [clusterId, fromSeq, toSeq],
  );
  return result.rows.map(viewOf);
}

/**
 * What a client that last saw `afterSeq` missed, oldest first. When more than `limit` were missed, the most
 * recent `limit` (a live tail wants the present) and `truncated`.
 */
export async function eventsAfter(pool: Pool, clusterId: string, afterSeq: number, limit: number) {
  const result = await pool.query<EventRow>(
    `SELECT ${COLUMNS} FROM broker_event WHERE cluster_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3`,
    [clusterId, afterSeq, limit + 1],
  );
  const truncated = result.rows.length > limit;
  return { events: result.rows.slice(0, limit).reverse().map(viewOf), truncated };
}
