// One query, whichever source answers it: parse, run under the bounds the settings give, project the columns, and
// say what the source cannot see. The router and the MCP tool both come here.
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Governed, GovernedMessage } from '@/modules/platform/governance/index.ts';
import { addressPatternRegex } from './address-pattern.ts';
import type { QueryBounds } from './bounds.ts';
import { readIndex } from './index/index-reader.ts';
import { readLive } from './live/live-read.ts';
import type { MessageRow } from './message-row.ts';
import { parseQuery } from './query/parse.ts';
import { project } from './query/evaluate.ts';
import { HEADER_FIELDS, type QueryPlan } from './query/plan.ts';
import { SQL_SETTINGS } from './sql.settings.ts';
import type { QueryOutput } from './sql.schema.ts';

export interface QueryRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly settings: {
    value(key: string): unknown;
    integer(setting: typeof SQL_SETTINGS.rowCap): number;
    duration(setting: typeof SQL_SETTINGS.timeout): number;
  };
}

export function boundsOf(runtime: QueryRuntime): QueryBounds {
  return {
    targetCap: runtime.settings.integer(SQL_SETTINGS.targetCap),
    scanCap: runtime.settings.integer(SQL_SETTINGS.scanCap),
    rowCap: runtime.settings.integer(SQL_SETTINGS.rowCap),
    timeoutMs: runtime.settings.duration(SQL_SETTINGS.timeout),
  };
}

const STAR_COLUMNS = [...HEADER_FIELDS, 'properties', 'body'];

/** One row as the SELECT asked for it: `*` is every header, then properties and body. */
export function selectedColumns(plan: QueryPlan, row: MessageRow): Record<string, unknown> {
  if (plan.columns === '*')
    return Object.fromEntries(STAR_COLUMNS.map((column) => [column, row[column as keyof MessageRow]]));
  return project(plan.columns, row);
}

function shape(
  plan: QueryPlan,
  rows: readonly MessageRow[],
): { columns: string[]; rows: Array<Record<string, unknown>> } {
  const columns = plan.columns === '*' ? STAR_COLUMNS : plan.columns.map((column) => column.name);
  return { columns, rows: rows.map((row) => selectedColumns(plan, row)) };
}

/** What the subscriptions behind the matched addresses cannot see, said on every index answer that reads them. */
export async function indexNotices(runtime: QueryRuntime, clusterId: string, plan: QueryPlan): Promise<string[]> {
  const modes = await runtime.db.query<{ mode: string }>(
    `SELECT DISTINCT mode FROM sql_subscription WHERE cluster_id = $1 AND address ~ $2`,
    [clusterId, addressPatternRegex(plan.addressPattern)],
  );
  const notices: string[] = [];
  const sampleEvery = runtime.settings.duration(SQL_SETTINGS.sampleInterval);
  if (modes.some((row) => row.mode === 'SAMPLE'))
    notices.push(
      `Sampled: a queue is browsed every ${String(sampleEvery / 1000)} s; a queue that drains faster than that is invisible to the index (a message that arrives and is consumed between two browses is never seen).`,
    );
  if (modes.some((row) => row.mode === 'CAPTURE'))
    notices.push(
      'Captured per address: each message routed to the address is one row, whatever queues it reached; the index cannot say which subscriptions received it.',
    );
  if (modes.length === 0)
    notices.push('No sampling or capture subscription covers these addresses: the index holds nothing for them.');
  return notices;
}

export async function runQuery(
  runtime: QueryRuntime,
  input: { clusterId: string; sql: string; source: 'live' | 'index'; clear: boolean; now?: Date },
): Promise<QueryOutput & { governed: Array<Governed<GovernedMessage>> }> {
  const started = Date.now();
  const plan = parseQuery(input.sql, input.now ?? new Date());
  const bounds = boundsOf(runtime);
  if (input.source === 'live') {
    const answer = await readLive(runtime, { clusterId: input.clusterId, plan, clear: input.clear, bounds });
    return {
      source: 'live',
      ...shape(plan, answer.rows),
      scanned: answer.scanned,
      bounds: answer.bounds,
      selector: answer.selector,
      residual: answer.residual,
      nodes: answer.nodes,
      notices: [],
      queuesAsOf: answer.queuesAsOf,
      elapsedMs: Date.now() - started,
      fetchedAt: new Date().toISOString(),
      governed: answer.governed,
    };
  }
  const [answer, notices] = await Promise.all([
    readIndex(runtime.db, { clusterId: input.clusterId, plan, bounds }),
    indexNotices(runtime, input.clusterId, plan),
  ]);
  if (input.clear) notices.push('The index keeps the masked form only: values in clear are shown by the live source.');
  return {
    source: 'index',
    ...shape(plan, answer.rows),
    scanned: answer.scanned,
    bounds: answer.bounds,
    selector: null,
    residual: false,
    nodes: null,
    notices,
    queuesAsOf: null,
    elapsedMs: Date.now() - started,
    fetchedAt: new Date().toISOString(),
    governed: [],
  };
}
