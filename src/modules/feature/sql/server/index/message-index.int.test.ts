// message_index on a real PostgreSQL: the writer stores content masked by the policy in force (originals sealed,
// bound to their row), resolves a caller only once its rows are committed and makes a full buffer wait instead of
// dropping; the reader answers each operator of the grammar, Artemis wildcards, prunes partitions on a time range
// (EXPLAIN), and says which bound it reached; the partition maintenance keeps yesterday to the days ahead and drops
// whole days past the retention. Rows are written relative to now (never on a fixed date).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { openStoredOriginal } from '@/modules/platform/governance/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import type { Predicate, QueryPlan } from '../query/plan.ts';
import { IndexWriter } from './index-writer.ts';
import { indexQuery, readIndex, type IndexReadInput } from './index-reader.ts';
import { SQL_INDEX_CHANNEL } from './index-channel.ts';
import { dropExpiredIndexPartitions, makeIndexPartitions } from './partition-maintenance.ts';
import { createPartitionSql, partitionFor } from './partitions.ts';
import { sealBinding, type CapturedMessage } from './stored-message.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');

const DAY_MS = 86_400_000;
const CARD = '4111 1111 1111 1111';
let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;
const clusterId = randomUUID();
const otherCluster = randomUUID();
const nodeId = randomUUID();
const notified: string[] = [];
const BOUNDS = { scanCap: 10_000, rowCap: 1_000, timeoutMs: 10_000 };

function message(index: number, fields: Partial<CapturedMessage> = {}): CapturedMessage {
  return {
    clusterId,
    nodeId,
    node: 'node-a',
    origin: 'capture',
    subscriptionId: null,
    id: `ID:${String(index)}`,
    address: 'orders.eu',
    queue: null,
    time: new Date(Date.now() - 60_000 + index).toISOString(),
    priority: 4,
    durable: true,
    expiration: null,
    correlation_id: null,
    reply_to: null,
    properties: {},
    body: null,
    ...fields,
  };
}

function newWriter(capacity = 1_000): IndexWriter {
  return new IndexWriter({
    pool: db.pool,
    capacity: () => capacity,
    notify: (channel, payload) => {
      if (channel === SQL_INDEX_CHANNEL) notified.push(payload);
      return Promise.resolve();
    },
    governance: { db, bus },
  });
}

function plan(addressPattern: string, where: Predicate | null = null, extra: Partial<QueryPlan> = {}): QueryPlan {
  return { addressPattern, columns: '*', where, orderBy: [], limit: null, ...extra };
}

async function ids(input: Partial<IndexReadInput> & { plan: QueryPlan }): Promise<string[]> {
  const result = await readIndex(db, { clusterId, bounds: BOUNDS, ...input });
  return result.rows.map((row) => row.id).sort();
}

const prop = (key: string) => ({ kind: 'property', key }) as const;
const header = (name: 'priority' | 'time' | 'node' | 'id' | 'correlation_id' | 'queue') =>
  ({ kind: 'header', name }) as const;
const body = (...path: string[]) => ({ kind: 'body', path }) as const;
type AnyField = Extract<Predicate, { op: 'compare' }>['field'];
const compare = (
  field: AnyField,
  comparison: '=' | '<>' | '<' | '<=' | '>' | '>=',
  value: string | number | boolean | null,
): Predicate => ({ op: 'compare', field, comparison, value });

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'message-index-test' });
  bus = createDatabaseBus(database.url, db.pool, 'message-index-bus');
  await bus.ready();
  await insertClusterRow(db.prisma, { id: clusterId, name: 'message-index' });
  const writer = newWriter();
  await writer.accept([
    message(1, { properties: { tenant: 'acme', amount: 120, vip: true }, body: { order: { id: 7731, region: 'eu' } } }),
    message(2, {
      properties: { tenant: 'globex', amount: 80, vip: false },
      body: { order: { id: 7732, region: 'us' } },
      priority: 9,
    }),
    message(3, { properties: { tenant: 'acme', amount: '120' }, body: 'plain text', correlation_id: 'c-3' }),
    message(4, { address: 'orders.us.west', properties: { tenant: 'a_b%c' }, node: 'node-b' }),
    message(5, { address: 'orders', properties: {} }),
    message(6, { address: 'payments.eu', properties: { card: CARD }, body: { pan: CARD } }),
    message(7, { clusterId: otherCluster, address: 'orders.eu', properties: { tenant: 'acme' } }),
  ]);
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

describe('the index writer', () => {
  it('stores content masked, the original sealed bound to its row, and announces the seq range per cluster', async () => {
    const [row] = await db.query<{
      properties: Record<string, unknown>;
      body: unknown;
      sealed_cipher: string;
      sealed_key_id: string;
      row_id: string;
      policy_version: number;
      redactions: unknown[];
    }>(
      `SELECT properties, body, sealed_cipher, sealed_key_id, row_id, policy_version, redactions FROM message_index WHERE address = 'payments.eu'`,
    );
    expect(JSON.stringify(row?.properties)).not.toContain('4111 1111 1111 1111');
    expect(JSON.stringify(row?.body)).not.toContain('4111');
    expect(row?.redactions.length).toBeGreaterThanOrEqual(2);
    const sealed = { cipher: String(row?.sealed_cipher), keyId: String(row?.sealed_key_id) };
    expect(openStoredOriginal(sealed, sealBinding(String(row?.row_id)))).toMatchObject({
      properties: { card: CARD },
      body: { pan: CARD },
    });
    expect(() => openStoredOriginal(sealed, sealBinding(randomUUID()))).toThrow();
    const ranges = notified.map((payload) => JSON.parse(payload) as { clusterId: string });
    expect(ranges.map((range) => range.clusterId).sort()).toEqual([clusterId, otherCluster].sort());
  });

  it('resolves accept only once the rows are committed', async () => {
    const writer = newWriter();
    await writer.accept([message(100, { address: 'durable.check' })]);
    const [row] = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM message_index WHERE address = 'durable.check'`,
    );
    expect(row?.n).toBe('1');
  });

  it('makes a caller wait for room when the buffer is full, and drops nothing', async () => {
    const writer = newWriter(2);
    const first = writer.accept([message(200, { address: 'full.buffer' }), message(201, { address: 'full.buffer' })]);
    const second = writer.accept([message(202, { address: 'full.buffer' })]);
    const third = writer.accept([message(203, { address: 'full.buffer' })]);
    expect(writer.buffered).toBe(2);
    await Promise.all([first, second, third]);
    const [row] = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM message_index WHERE address = 'full.buffer'`,
    );
    expect(row?.n).toBe('4');
  });
});

describe('reading the index', () => {
  it('matches Artemis wildcards: * one word, # any words', async () => {
    expect(await ids({ plan: plan('orders.eu') })).toEqual(['ID:1', 'ID:2', 'ID:3']);
    expect(await ids({ plan: plan('orders.*') })).toEqual(['ID:1', 'ID:2', 'ID:3']);
    expect(await ids({ plan: plan('orders.#') })).toEqual(['ID:1', 'ID:2', 'ID:3', 'ID:4', 'ID:5']);
    expect(await ids({ plan: plan('orders.*.west') })).toEqual(['ID:4']);
    expect(await ids({ plan: plan('#.eu') })).toEqual(['ID:1', 'ID:2', 'ID:3', 'ID:6']);
    expect(await ids({ plan: plan('*') })).toEqual(['ID:5']);
    expect(await ids({ plan: plan('or*') })).toEqual([]);
  });

  it('compares headers, properties by their JSON type, and body paths', async () => {
    const all = 'orders.#';
    const where = async (predicate: Predicate) => ids({ plan: plan(all, predicate) });
    expect(await where(compare(prop('tenant'), '=', 'acme'))).toEqual(['ID:1', 'ID:3']);
    expect(await where(compare(prop('tenant'), '<>', 'acme'))).toEqual(['ID:2', 'ID:4']);
    expect(await where(compare(prop('amount'), '=', 120))).toEqual(['ID:1']);
    expect(await where(compare(prop('amount'), '>', 100))).toEqual(['ID:1']);
    expect(await where(compare(prop('amount'), '>=', 80))).toEqual(['ID:1', 'ID:2']);
    expect(await where(compare(prop('amount'), '<', 100))).toEqual(['ID:2']);
    expect(await where(compare(prop('amount'), '<=', 120))).toEqual(['ID:1', 'ID:2']);
    expect(await where(compare(prop('amount'), '=', '120'))).toEqual(['ID:3']);
    expect(await where(compare(prop('vip'), '=', true))).toEqual(['ID:1']);
    expect(await where({ op: 'not', arg: compare(prop('tenant'), '=', 'acme') })).toEqual(['ID:2', 'ID:4']);
    expect(await where(compare(header('priority'), '>', 4))).toEqual(['ID:2']);
    expect(await where(compare(header('node'), '=', 'node-b'))).toEqual(['ID:4']);
    expect(await where(compare(header('correlation_id'), '=', 'c-3'))).toEqual(['ID:3']);
    expect(await where(compare(body('order', 'id'), '=', 7731))).toEqual(['ID:1']);
    expect(await where(compare(body('order', 'region'), '<>', 'eu'))).toEqual(['ID:2']);
    expect(await where({ op: 'in', field: prop('tenant'), values: ['globex', 'a_b%c'], negated: false })).toEqual([
      'ID:2',
      'ID:4',
    ]);
    expect(await where({ op: 'in', field: prop('tenant'), values: ['globex'], negated: true })).toEqual([
      'ID:1',
      'ID:3',
      'ID:4',
    ]);
    expect(await where({ op: 'like', field: prop('tenant'), pattern: 'ac%', negated: false })).toEqual([
      'ID:1',
      'ID:3',
    ]);
    expect(await where({ op: 'like', field: prop('tenant'), pattern: 'a!_b!%c', escape: '!', negated: false })).toEqual(
      ['ID:4'],
    );
    expect(await where({ op: 'like', field: header('id'), pattern: 'ID:_', negated: true })).toEqual([]);
    expect(await where({ op: 'between', field: prop('amount'), low: 90, high: 130, negated: false })).toEqual(['ID:1']);
    expect(await where({ op: 'between', field: prop('amount'), low: 90, high: 130, negated: true })).toEqual(['ID:2']);
    expect(await where({ op: 'isNull', field: prop('tenant'), negated: false })).toEqual(['ID:5']);
    expect(await where({ op: 'isNull', field: header('correlation_id'), negated: true })).toEqual(['ID:3']);
    expect(await where({ op: 'isNull', field: body('order'), negated: true })).toEqual(['ID:1', 'ID:2']);
    expect(
      await where({
        op: 'or',
        args: [
          { op: 'and', args: [compare(prop('tenant'), '=', 'acme'), compare(body('order', 'region'), '=', 'eu')] },
          compare(header('priority'), '=', 9),
        ],
      }),
    ).toEqual(['ID:1', 'ID:2']);
    expect(await where(compare(header('time'), '>=', new Date(Date.now() - 10 * 60_000).toISOString()))).toEqual([
      'ID:1',
      'ID:2',
      'ID:3',
      'ID:4',
      'ID:5',
    ]);
    expect(await where(compare(header('time'), '<', new Date(Date.now() - 10 * 60_000).toISOString()))).toEqual([]);
  });

  it('keeps literals out of the SQL text', () => {
    const { sql, values } = indexQuery({
      clusterId,
      bounds: BOUNDS,
      plan: plan("orders'; DROP TABLE message_index; --.#", compare(prop("x'); DROP"), '=', "'; DROP TABLE x")),
    });
    expect(sql).not.toContain('DROP');
    expect(values).toContain(JSON.stringify({ "x'); DROP": "'; DROP TABLE x" }));
  });

  it('orders as asked and reads a tail after a seq', async () => {
    const result = await readIndex(db, {
      clusterId,
      bounds: BOUNDS,
      plan: plan('orders.*', null, { orderBy: [{ field: prop('amount'), direction: 'asc' }] }),
    });
    // jsonb's order: numbers by value (80 before 120); a string sorts before every number.
    expect(result.rows.map((row) => row.id)).toEqual(['ID:3', 'ID:2', 'ID:1']);
    const tail = await readIndex(db, {
      clusterId,
      bounds: BOUNDS,
      plan: plan('orders.#'),
      afterSeq: result.rows[1]?.seq ?? 0,
    });
    expect(tail.rows.map((row) => row.id)).toEqual(['ID:3', 'ID:4', 'ID:5']);
    expect(tail.lastSeq).toBe(tail.rows.at(-1)?.seq);
  });

  it('prunes the partitions indexed before a time range', async () => {
    const old = partitionFor(new Date(Date.now() - 10 * DAY_MS));
    await db.pool.query(createPartitionSql(old));
    const explain = async (where: Predicate | null) => {
      const { sql, values } = indexQuery({ clusterId, bounds: BOUNDS, plan: plan('orders.#', where) });
      const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    expect(await explain(null)).toContain(old.name);
    const lastHour = compare(header('time'), '>=', new Date(Date.now() - 3_600_000).toISOString());
    const pruned = await explain(lastHour);
    expect(pruned).not.toContain(old.name);
    expect(pruned).toContain(partitionFor(new Date()).name);
  });
});

describe('bounds', () => {
  it('says when the row cap stopped it, and not when the LIMIT did', async () => {
    const capped = await readIndex(db, { clusterId, bounds: { ...BOUNDS, rowCap: 2 }, plan: plan('orders.#') });
    expect(capped.rows).toHaveLength(2);
    expect(capped.bounds).toEqual([
      {
        bound: 'row-cap',
        words:
          'Stopped at the row cap: 2 rows shown and more match; narrow the time range or the WHERE, or raise sql.row-cap.',
      },
    ]);
    const limited = await readIndex(db, { clusterId, bounds: BOUNDS, plan: plan('orders.#', null, { limit: 2 }) });
    expect(limited.rows).toHaveLength(2);
    expect(limited.bounds).toEqual([]);
  });

  it('says when the scan cap stopped it', async () => {
    const result = await readIndex(db, {
      clusterId,
      bounds: { ...BOUNDS, scanCap: 3 },
      plan: plan('orders.#', compare(prop('tenant'), '<>', 'nobody')),
    });
    expect(result.rows.map((row) => row.id)).toEqual(['ID:4', 'ID:3']);
    expect(result.bounds.map((bound) => bound.bound)).toEqual(['scan-cap']);
    expect(result.scanned).toBe(3);
    expect(result.bounds[0]?.words).toContain('Stopped at the scan cap: 3 index rows examined (sql.scan-cap)');
    const under = await readIndex(db, { clusterId, bounds: { ...BOUNDS, scanCap: 5 }, plan: plan('orders.#') });
    expect(under.bounds).toEqual([]);
  });

  it('says when the timeout stopped it', async () => {
    const blocker = await db.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE message_index IN ACCESS EXCLUSIVE MODE');
      const result = await readIndex(db, { clusterId, bounds: { ...BOUNDS, timeoutMs: 300 }, plan: plan('orders.#') });
      expect(result.rows).toEqual([]);
      expect(result.bounds).toEqual([
        {
          bound: 'timeout',
          words:
            'Stopped at the timeout: the index query ran past 300 ms (sql.timeout) and was cancelled, so no rows are shown; narrow the time range or the address pattern, or raise sql.timeout.',
        },
      ]);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
  });
});

describe('partition maintenance', () => {
  it('keeps yesterday to the days ahead and drops whole days past the retention', async () => {
    const now = new Date();
    const names = await makeIndexPartitions((sql) => db.pool.query(sql), now);
    expect(names[0]).toBe(partitionFor(new Date(now.getTime() - DAY_MS)).name);
    expect(names).toContain(partitionFor(now).name);
    const expired = partitionFor(new Date(now.getTime() - 5 * DAY_MS));
    await db.pool.query(createPartitionSql(expired));
    await dropExpiredIndexPartitions((sql) => db.pool.query(sql), 72 * 3_600_000, now);
    const left = await db.query<{ relname: string }>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'message_index'`,
    );
    const kept = left.map((row) => row.relname);
    expect(kept).not.toContain(expired.name);
    for (const name of names) expect(kept).toContain(name);
  });
});

describe('a writer whose day has no partition', () => {
  // Last in the file: it drops today's partition and the rows in it.
  it('makes the partitions again and writes the rows', async () => {
    const writer = newWriter();
    await writer.accept([message(300, { address: 'before.drop' })]);
    await db.pool.query(`DROP TABLE "${partitionFor(new Date()).name}"`);
    await writer.accept([message(301, { address: 'after.drop' })]);
    const rows = await db.query<{ address: string }>(`SELECT address FROM message_index WHERE address LIKE '%.drop'`);
    expect(rows.map((row) => row.address)).toEqual(['after.drop']);
  });
});
