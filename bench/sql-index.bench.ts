// The SQL module's message index on a real PostgreSQL. Prints two figures:
//   1. captured messages through the IndexWriter into message_index with masking on (every message governed by
//      the content policy, a card number in a tenth of them, each original sealed in the vault, each capture key
//      checked against today's and yesterday's rows), messages per second sustained over 30,000, handed over by
//      capture-like callers that await each commit (target ≥ 5,000/s);
//   2. SQL over 1,000,000 indexed rows spread over 40 hours (three day partitions): a time range (the last hour),
//      an address pattern and a property predicate, through readIndex with the default bounds, p50/p95 of 30 runs
//      (target p95 < 300 ms); and the same with a range predicate on a property that no index answers.
//   node --import tsx bench/sql-index.bench.ts [writer|query]   (one part only when named; PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDatabaseBus, type DatabaseBus } from '../src/base/db/bus.ts';
import { openDatabase, type Database } from '../src/base/db/database.ts';
import { migrate } from '../src/base/db/migrate.ts';
import { IndexWriter } from '../src/modules/feature/sql/server/index/index-writer.ts';
import { readIndex } from '../src/modules/feature/sql/server/index/index-reader.ts';
import { timeOrderedKey } from '../src/modules/feature/sql/server/capture/captured-message.ts';
import { createPartitionSql, partitionFor } from '../src/modules/feature/sql/server/index/partitions.ts';
import type { CapturedMessage } from '../src/modules/feature/sql/server/index/stored-message.ts';
import type { Predicate, QueryPlan } from '../src/modules/feature/sql/server/query/plan.ts';
import { timesMs } from './bench-support.ts';
import { reportFigure } from './report.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');

const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const CAPTURED = 30_000;
/** Capture-like callers, each handing over 100 messages and awaiting their commit before the next. */
const CALLERS = 20;
const HAND_OVER = 100;
const INDEXED = 1_000_000;
const HOURS = 40;
const DAY_MS = 86_400_000;
const BOUNDS = { scanCap: 20_000, rowCap: 1_000, timeoutMs: 15_000 };

function captured(clusterId: string, nodeId: string, index: number): CapturedMessage {
  return {
    clusterId,
    nodeId,
    node: 'node-a',
    origin: 'capture',
    // Each copy its own key, made as the capture consumer makes it: every row checked for a redelivery.
    captureKey: timeOrderedKey(Date.now() + 3_600_000, [clusterId, nodeId, String(index)]),
    subscriptionId: null,
    id: `ID:${randomUUID()}`,
    address: `orders.${['eu', 'us', 'apac'][index % 3] ?? 'eu'}.${String(index % 20)}`,
    queue: null,
    time: new Date().toISOString(),
    priority: 4,
    durable: true,
    expiration: null,
    correlation_id: index % 4 === 0 ? `corr-${String(index)}` : null,
    reply_to: null,
    properties: {
      tenant: `t${String(index % 100)}`,
      amount: index % 1000,
      channel: 'web',
      ...(index % 10 === 0 ? { note: 'paid with 4111 1111 1111 1111' } : {}),
    },
    body: {
      order: { id: index, lines: [{ sku: `SKU-${String(index % 500)}`, qty: 1 + (index % 5) }] },
      customer: { email: index % 10 === 0 ? 'jane.doe@example.com' : 'anonymous', since: '2020-01-01' },
      comment: 'Please deliver to the back door; ring twice.',
    },
  };
}

async function seedIndex(pool: pg.Pool, clusterId: string): Promise<void> {
  const now = Date.now();
  for (let day = 0; day <= 2; day++) await pool.query(createPartitionSql(partitionFor(new Date(now - day * DAY_MS))));
  const slice = 100_000;
  for (let from = 0; from < INDEXED; from += slice) {
    await pool.query(
      `INSERT INTO message_index (indexed_at, row_id, cluster_id, node_id, node_name, address, queue, message_id,
                                  message_time, priority, durable, origin, properties, body, policy_version,
                                  sealed_cipher, sealed_key_id)
       SELECT t.at, gen_random_uuid(), $1, $2, 'node-' || (i % 2), 'orders.' || (ARRAY['eu','us','apac'])[1 + i % 3] || '.' || (i % 20),
              NULL, 'ID:' || i, t.at - interval '2 seconds', 4, true, 'capture',
              jsonb_build_object('tenant', 't' || (i % 100), 'amount', i % 1000, 'channel', 'web'),
              jsonb_build_object('order', jsonb_build_object('id', i)), 1, 'bench', 'bench'
         FROM generate_series($3::int, $4::int) AS i,
              LATERAL (SELECT to_timestamp($5::float8 / 1000) - (i::float8 / $6) * interval '${String(HOURS)} hours' AS at) t`,
      [clusterId, randomUUID(), from, Math.min(INDEXED, from + slice) - 1, now, INDEXED],
    );
  }
  await pool.query('ANALYZE message_index');
}

async function main(): Promise<void> {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const db = openDatabase(databaseUrl, { poolSize: 4, applicationName: 'bench-sql-index' });
  const bus = createDatabaseBus(databaseUrl, db.pool, 'bench-sql-index');
  try {
    await migrate(databaseUrl, { log: () => undefined });
    await bus.ready();

    const part = process.argv[2];
    if (part !== 'query') await benchWriter(db, bus);
    if (part !== 'writer') await benchQueries(db);
  } finally {
    await bus.close();
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function benchWriter(db: Database, bus: DatabaseBus): Promise<void> {
  const clusterId = randomUUID();
  const nodeId = randomUUID();
  const writer = new IndexWriter({
    pool: db.pool,
    capacity: () => 20_000,
    notify: (channel, payload) => bus.notify(channel, payload),
    governance: { db, bus },
  });
  await writer.accept([captured(clusterId, nodeId, -1)]); // warm: policy loaded, partitions made
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < CAPTURED) {
        const from = next;
        next += HAND_OVER;
        const batch = Array.from({ length: HAND_OVER }, (_, offset) => captured(clusterId, nodeId, from + offset));
        await writer.accept(batch);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await writer.stop();
  const [row] = await db.query<{ n: string; clear: string }>(
    `SELECT count(*) AS n, count(*) FILTER (WHERE properties::text LIKE '%4111 1111%') AS clear FROM message_index`,
  );
  const stored = Number(row?.n) - 1;
  console.log(
    `writer: ${stored.toLocaleString('en')} messages in ${seconds.toFixed(2)} s = ${Math.round(stored / seconds).toLocaleString('en')} messages/s` +
      ` with masking on (target ≥ 5,000/s); card numbers left in clear: ${String(row?.clear)}`,
  );
  reportFigure({
    id: 'sql-index.writer-rate',
    figure: `Captured messages into message_index through the index writer, masking on (each governed, original sealed), ${String(CALLERS)} callers awaiting each commit`,
    target: '≥ 5,000/s',
    seen: `${Math.round(stored / seconds).toLocaleString('en')} messages/s (${stored.toLocaleString('en')} in ${seconds.toFixed(2)} s); ${String(row?.clear)} card numbers left in clear`,
    holds: stored / seconds >= 5_000 && Number(row?.clear) === 0,
  });
}

async function benchQueries(db: Database): Promise<void> {
  const indexed = randomUUID();
  const seeded = performance.now();
  await seedIndex(db.pool, indexed);
  console.log(
    `seeded ${INDEXED.toLocaleString('en')} rows over ${String(HOURS)} h in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );
  const lastHour: Predicate = {
    op: 'compare',
    field: { kind: 'header', name: 'time' },
    comparison: '>=',
    value: new Date(Date.now() - 3_600_000).toISOString(),
  };
  const query = (property: Predicate): QueryPlan => ({
    addressPattern: 'orders.eu.*',
    columns: '*',
    where: { op: 'and', args: [lastHour, property] },
    orderBy: [],
    limit: 100,
  });
  const equality = query({
    op: 'compare',
    field: { kind: 'property', key: 'tenant' },
    comparison: '=',
    value: 't42',
  });
  const range = query({ op: 'compare', field: { kind: 'property', key: 'amount' }, comparison: '>', value: 990 });
  for (const [label, plan, id, words] of [
    ['tenant = t42', equality, 'sql-index.query-tenant-p95', "`tenant = 't42'` (GIN)"],
    ['amount > 990', range, 'sql-index.query-amount-p95', '`amount > 990` (a property range no index answers)'],
  ] as const) {
    const result = await readIndex(db, { clusterId: indexed, plan, bounds: BOUNDS });
    const times = await timesMs(() => readIndex(db, { clusterId: indexed, plan, bounds: BOUNDS }), 30);
    console.log(
      `query FROM orders.eu.* WHERE time >= now() - 1 h AND ${label} LIMIT 100 over ${INDEXED.toLocaleString('en')} rows:` +
        ` p50 ${times.p50.toFixed(1)} ms, p95 ${times.p95.toFixed(1)} ms (target p95 < 300 ms);` +
        ` ${String(result.rows.length)} rows, bounds: ${result.bounds.map((bound) => bound.bound).join(', ') || 'none'}`,
    );
    reportFigure({
      id,
      figure: `SQL over ${INDEXED.toLocaleString('en')} indexed rows (${String(HOURS)} h, 3 partitions): \`FROM orders.eu.*\`, the last hour, ${words}, LIMIT 100, 30 runs`,
      target: 'p95 < 300 ms',
      seen: `p50 ${times.p50.toFixed(1)} ms, p95 ${times.p95.toFixed(1)} ms`,
      holds: times.p95 < 300,
    });
  }
}

await main();
