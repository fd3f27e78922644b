// The queue grid read on a real PostgreSQL: a cluster of three logical nodes (one a primary/backup pair) whose
// queue_snapshot holds 1,000 and then 10,000 queues per node, seeded in one statement each. For each size it prints
// the median time of a page of 50 for the grid's common views (by name, deepest first, a search, a far page) and
// the ratio of the two sizes, so a change that makes the grid grow worse than linearly shows.
//   npm run bench:queue-grid        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../src/server/db/database.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { readQueueGrid, type QueueGridQuery } from '../src/modules/platform/scrape/server/queue-grid.ts';

const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SIZES = [1_000, 10_000];
const RUNS = 9;

const VIEWS: Record<string, Omit<QueueGridQuery, 'clusterId'>> = {
  'by name, page 1': { sort: { field: 'queueName', direction: 'asc' }, page: 1, pageSize: 50 },
  'deepest first': { sort: { field: 'messageCount', direction: 'desc' }, page: 1, pageSize: 50 },
  'search "7"': { q: '7', sort: { field: 'queueName', direction: 'asc' }, page: 1, pageSize: 50 },
  'by name, page 100': { sort: { field: 'queueName', direction: 'asc' }, page: 100, pageSize: 50 },
};

async function seedCluster(db: Database, queues: number): Promise<string> {
  const clusterId = randomUUID();
  await db.query(
    `INSERT INTO cluster (id, name, username, password_cipher, password_key_id, updated_at)
     VALUES ($1, $2, 'bench', 'x', 'none', now())`,
    [clusterId, `bench-${queues}`],
  );
  // n1 is a primary/backup pair (both listed queues before the failover), n2 and n3 stand alone.
  const nodes = [
    ['n1', true],
    ['n1', false],
    ['n2', true],
    ['n3', true],
  ] as const;
  for (const [index, [brokerNodeId, serving]] of nodes.entries()) {
    const nodeId = randomUUID();
    await db.query(
      `INSERT INTO cluster_node (id, cluster_id, management_url, broker_node_id, serving)
       VALUES ($1, $2, $3, $4, $5)`,
      [nodeId, clusterId, `http://127.0.0.1:${18_000 + index}/console/jolokia`, brokerNodeId, serving],
    );
    await db.query(
      `INSERT INTO queue_snapshot (cluster_id, node_id, address, queue_name, routing_type, message_count,
                                   consumer_count, delivering_count, messages_added, messages_acked,
                                   messages_expired, scraped_at, seen_in)
       SELECT $1, $2, 'address.' || i, 'queue.' || i, 'ANYCAST', (i * 7919) % 100000, i % 3, 0, i, 0, 0, now(), 'C'
         FROM generate_series(1, $3) AS i`,
      [clusterId, nodeId, queues],
    );
  }
  await db.query('ANALYZE queue_snapshot');
  return clusterId;
}

async function medianMs(work: () => Promise<unknown>): Promise<number> {
  await work(); // warm the plan and the cache
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString(), { poolSize: 4, applicationName: 'bench-queue-grid' });
  try {
    await migrate(url.toString(), { log: () => undefined });
    const results = new Map<string, number[]>();
    for (const size of SIZES) {
      const clusterId = await seedCluster(db, size);
      console.log(
        `\n${size.toLocaleString('en')} queues on 4 nodes (3 logical), ${(size * 4).toLocaleString('en')} rows`,
      );
      for (const [view, query] of Object.entries(VIEWS)) {
        const ms = await medianMs(() => readQueueGrid(db, { clusterId, ...query }));
        results.set(view, [...(results.get(view) ?? []), ms]);
        console.log(`  ${view.padEnd(20)} ${ms.toFixed(1).padStart(7)} ms per page (median of ${RUNS})`);
      }
    }
    console.log(`\nTime ratio ${SIZES[1]} / ${SIZES[0]} queues (10 = linear in the cluster's queue count):`);
    for (const [view, [small, large]] of results) {
      console.log(`  ${view.padEnd(20)} ${((large ?? 0) / (small ?? 1)).toFixed(2)}`);
    }
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
