// A QueryPlan over the persisted message_index of one cluster. The rows a query examines are those of the cluster
// whose address matches the pattern and which meet the top-level conjuncts an index answers (time bounds,
// property equalities), in the query's order, at most the scan cap of them; the rest of the WHERE is applied to
// those, and at most the row cap is returned. One statement, under a statement timeout. Every bound reached is
// said in words. Rows come back as stored: masked by the content policy (the caller's exit governs clear access).
import type { Pool } from 'pg';
import { inTransaction } from '@/base/db/transaction.ts';
import type { MessageRow, PropertyValue } from '../message-row.ts';
import type { QueryPlan } from '../query/plan.ts';
import { addressCondition } from './address-pattern.ts';
import { orderTermSql, predicateSql, seekConjuncts, SqlParameters, timeLowerBound } from './predicate-sql.ts';

/**
 * How far ahead of the service's clock a message's own timestamp may be and still be found by a time range: a
 * lower bound on the message time prunes the partitions indexed more than this before it.
 */
const CLOCK_SKEW_MS = 3_600_000;

interface IndexBounds {
  readonly scanCap: number;
  readonly rowCap: number;
  readonly timeoutMs: number;
}

type BoundName = 'scan-cap' | 'row-cap' | 'timeout';

interface BoundReached {
  readonly bound: BoundName;
  readonly words: string;
}

type IndexedRow = MessageRow & { readonly seq: number };

export interface IndexReadResult {
  readonly rows: IndexedRow[];
  /** Index rows examined (the address and time range's, up to the scan cap). */
  readonly scanned: number;
  readonly bounds: BoundReached[];
  /** The last seq examined (a tail goes on after it); the given afterSeq, or null, when nothing was. */
  readonly lastSeq: number | null;
}

export interface IndexReadInput {
  readonly clusterId: string;
  readonly plan: QueryPlan;
  readonly bounds: IndexBounds;
  /** Only rows after this seq, in seq order (a tail, or a stream's Last-Event-ID). */
  readonly afterSeq?: number | undefined;
}

interface Row {
  seq: string | null;
  message_id: string;
  address: string;
  queue: string | null;
  node_name: string;
  message_time: Date;
  priority: number | null;
  durable: boolean | null;
  expiration: Date | null;
  correlation_id: string | null;
  reply_to: string | null;
  properties: Record<string, PropertyValue>;
  body: unknown;
  examined: string;
  last_seq: string | null;
}

const COLUMNS = `seq, message_id, address, queue, node_name, message_time, priority, durable, expiration,
                 correlation_id, reply_to, properties, body`;

const QUERY_CANCELED = '57014';

const count = (n: number) => n.toLocaleString('en-US');

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${count(ms / 1000)} s` : `${count(ms)} ms`;
}

function scanCapWords(scanCap: number): string {
  return `Stopped at the scan cap: ${count(scanCap)} index rows examined (sql.scan-cap) and more match the address and time range; rows past them were not looked at. Narrow the time range or the address pattern, or raise sql.scan-cap.`;
}

function rowCapWords(rowCap: number): string {
  return `Stopped at the row cap: ${count(rowCap)} rows shown and more match; narrow the time range or the WHERE, or raise sql.row-cap.`;
}

function timeoutWords(timeoutMs: number): string {
  return `Stopped at the timeout: the index query ran past ${seconds(timeoutMs)} (sql.timeout) and was cancelled, so no rows are shown; narrow the time range or the address pattern, or raise sql.timeout.`;
}

function orderSql(input: IndexReadInput, params: SqlParameters): string {
  if (input.afterSeq !== undefined) return 'seq ASC';
  const terms = input.plan.orderBy.map(
    (term) => `${orderTermSql(term.field, params)} ${term.direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`,
  );
  return terms.length === 0 ? 'message_time DESC, seq DESC' : [...terms, 'seq DESC'].join(', ');
}

/** The statement and its parameters (exported for EXPLAIN in tests). */
export function indexQuery(input: IndexReadInput): { sql: string; values: unknown[]; rowLimit: number } {
  const params = new SqlParameters();
  const { plan, bounds } = input;
  const seek = [
    `cluster_id = ${params.add(input.clusterId)}::uuid`,
    addressCondition('address', plan.addressPattern, (v) => params.add(v)),
  ];
  const since = timeLowerBound(plan.where);
  if (since)
    seek.push(`indexed_at >= ${params.add(new Date(since.getTime() - CLOCK_SKEW_MS).toISOString())}::timestamptz`);
  if (input.afterSeq !== undefined) seek.push(`seq > ${params.add(input.afterSeq)}::bigint`);
  for (const one of seekConjuncts(plan.where)) seek.push(predicateSql(one, params));
  const residual = plan.where ? predicateSql(plan.where, params) : 'TRUE';
  const order = orderSql(input, params);
  const rowLimit = Math.min(plan.limit ?? Infinity, bounds.rowCap);
  // One row past the scan cap is read only to tell that the cap was reached; it is not examined.
  const scanLimit = params.add(bounds.scanCap + 1);
  const scanCap = params.add(bounds.scanCap);
  const sql = `WITH scanned AS MATERIALIZED (
      SELECT ${COLUMNS} FROM message_index WHERE ${seek.join(' AND ')} ORDER BY ${order} LIMIT ${scanLimit}::bigint),
    examined AS MATERIALIZED (SELECT * FROM scanned ORDER BY ${order} LIMIT ${scanCap}::bigint)
    SELECT r.*, c.examined, c.last_seq
      FROM (SELECT (SELECT count(*) FROM scanned) AS examined, (SELECT max(seq) FROM examined) AS last_seq) c
      LEFT JOIN LATERAL (
        SELECT * FROM examined WHERE ${residual} ORDER BY ${order} LIMIT ${params.add(rowLimit + 1)}::bigint) r ON true`;
  return { sql, values: params.values, rowLimit };
}

function messageRow(row: Row): IndexedRow {
  return {
    seq: Number(row.seq),
    id: row.message_id,
    address: row.address,
    queue: row.queue,
    node: row.node_name,
    time: row.message_time.toISOString(),
    priority: row.priority,
    durable: row.durable,
    expiration: row.expiration?.toISOString() ?? null,
    correlation_id: row.correlation_id,
    reply_to: row.reply_to,
    properties: row.properties,
    body: row.body,
  };
}

export async function readIndex(db: { readonly pool: Pool }, input: IndexReadInput): Promise<IndexReadResult> {
  const { sql, values, rowLimit } = indexQuery(input);
  const noRows = { rows: [], scanned: 0, lastSeq: input.afterSeq ?? null };
  let rows: Row[];
  try {
    rows = await inTransaction(db.pool, async (client) => {
      await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(input.bounds.timeoutMs)]);
      return (await client.query<Row>(sql, values)).rows;
    });
  } catch (error) {
    if ((error as { code?: string }).code !== QUERY_CANCELED) throw error;
    return { ...noRows, bounds: [{ bound: 'timeout', words: timeoutWords(input.bounds.timeoutMs) }] };
  }
  const first = rows[0];
  if (!first) return { ...noRows, bounds: [] };
  const found = rows.filter((row) => row.seq !== null);
  const bounds: BoundReached[] = [];
  if (Number(first.examined) > input.bounds.scanCap)
    bounds.push({ bound: 'scan-cap', words: scanCapWords(input.bounds.scanCap) });
  // A LIMIT the query asked for is not a bound reached; the row cap cutting it (or no LIMIT) is.
  if (found.length > rowLimit && rowLimit === input.bounds.rowCap && (input.plan.limit ?? Infinity) > rowLimit)
    bounds.push({ bound: 'row-cap', words: rowCapWords(input.bounds.rowCap) });
  return {
    rows: found.slice(0, rowLimit).map(messageRow),
    scanned: Math.min(Number(first.examined), input.bounds.scanCap),
    bounds,
    lastSeq: first.last_seq === null ? (input.afterSeq ?? null) : Number(first.last_seq),
  };
}
