// The scrape against one real broker on 127.0.0.1 holding 10,000 queues and a real PostgreSQL:
//  1. tier-C ticks done the way the scraper does them (one POST with every page, then one short transaction):
//     wall time, database time and rows persisted per second;
//  2. the real worker service scraping that node for a minute through a counting HTTP proxy: management POSTs per
//     node per minute against the ticks its intervals schedule, printed as a ratio (1.00 = one POST per tick).
//   npm run bench:scrape            (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { startSingleNode } from '@test/artemis/index.ts';
import { migrate } from '../src/base/db/migrate.ts';
import { createQueues } from '../src/modules/platform/broker/management/broker-operations.ts';
import { ManagementClient } from '../src/modules/platform/broker/management/management-client.ts';
import { fetchEveryPage } from '../src/modules/platform/scrape/server/node-fetch.ts';
import { makePartitionsAhead } from '../src/modules/platform/scrape/server/partition-maintenance.ts';
import {
  keysOf,
  removeUnlisted,
  sampleNodeTotals,
  upsertQueueRows,
} from '../src/modules/platform/scrape/server/queue-persist.ts';
import { refreshQueueTotals } from '../src/modules/platform/scrape/server/queue-totals.ts';
import { recordSweep } from '../src/modules/platform/scrape/server/sweep-persist.ts';
import { inTransaction } from '../src/base/db/transaction.ts';
import { saveCluster, startWorker, storeSettings } from '@test/worker-kit.ts';
import { reportFigure } from './report.ts';

const QUEUE_COUNT = 10_000;
const PAGE_SIZE = 2_000;
const TICKS = 4;
const WATCH_MS = 60_000;
// A fast cadence (ticks arrive while the node is still busy with the previous call of the tier: those nodes sit
// the tick out) and the defaults with tier C shortened to fit the minute.
const CADENCES = [
  { A: 1_000, B: 2_000, C: 10_000 },
  { A: 5_000, B: 15_000, C: 30_000 },
];
const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Forwards to the broker, counting POSTs other than the one-time broker MBean search. */
function countingProxy(target: URL): Promise<{ url: string; count(): number; close(): void }> {
  let posts = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.method === 'POST' && !body.toString().includes('"type":"search"')) posts++;
      const forward = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: request.url,
          method: request.method,
          headers: { ...request.headers, host: target.host, origin: target.origin },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', () => response.destroy());
      forward.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}${target.pathname}`,
        count: () => posts,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      });
    }),
  );
}

const databaseName = `flotilla_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${databaseName} TEMPLATE template0`);
const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${databaseName}` }).toString();
const topology = await startSingleNode({ name: 'bench', maxHeap: '1G' });
const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
try {
  await migrate(databaseUrl, { log: () => undefined });
  await makePartitionsAhead((sql) => pool.query(sql));
  const node = topology.nodes[0];
  if (!node || !node.managementUrl.startsWith('http://127.0.0.1:'))
    throw new Error('the benchmark talks to loopback only');
  const client = new ManagementClient(
    { url: node.managementUrl, user: node.user, password: node.password },
    { maxConcurrentCalls: 1, maxCallsPerSecond: 1_000, timeoutMs: 300_000 },
  );
  const setup = await timed(async () => {
    for (let start = 0; start < QUEUE_COUNT; start += 250) {
      await createQueues(
        client,
        Array.from({ length: 250 }, (_, i) => ({ name: `bench.q.${String(start + i).padStart(5, '0')}` })),
      );
    }
  });
  console.log(`created ${QUEUE_COUNT} queues in ${(setup.ms / 1000).toFixed(1)} s`);

  // 1. Tier-C ticks, measured in their two parts.
  const { clusterId, nodes } = await saveCluster(databaseUrl, 'bench', topology.nodes);
  const nodeId = nodes[0]?.id as string;
  let knownTotal = 0;
  const ticks: Array<{ wall: number; database: number }> = [];
  for (let tick = 1; tick <= TICKS; tick++) {
    const startedAt = new Date();
    const fetched = await timed(() => fetchEveryPage(client, PAGE_SIZE, knownTotal, 'activemq.notifications'));
    knownTotal = fetched.value.total;
    const persisted = await timed(() =>
      inTransaction(pool, async (db) => {
        const target = { clusterId, nodeId, tier: 'C' as const, listedAt: startedAt };
        const written = await upsertQueueRows(db, target, fetched.value.rows);
        const removed = fetched.value.complete ? await removeUnlisted(db, nodeId, startedAt) : 0;
        // As the scraper does: the queue totals (ADR 11) and the node's totals sample.
        await refreshQueueTotals(db, clusterId, fetched.value.complete ? undefined : keysOf(fetched.value.rows));
        await sampleNodeTotals(db, target);
        await recordSweep(db, {
          clusterId,
          nodeId,
          tier: 'C',
          instanceId: 'bench',
          startedAt,
          finishedAt: new Date(),
          rowsPersisted: written.upserted,
          listedTotal: fetched.value.total,
          intervalMs: 300_000,
        });
        return { ...written, removed };
      }),
    );
    const wall = fetched.ms + persisted.ms;
    ticks.push({ wall, database: persisted.ms });
    const rows = persisted.value.upserted + persisted.value.sampled;
    console.log(
      `tier C tick ${tick}: ${fetched.value.rows.length} queues (complete: ${fetched.value.complete}); wall ${wall.toFixed(0)} ms = ` +
        `management ${fetched.ms.toFixed(0)} ms + database ${persisted.ms.toFixed(0)} ms; ` +
        `${persisted.value.upserted} snapshot rows + ${persisted.value.sampled} samples (${persisted.value.changed} changed) = ` +
        `${((rows / persisted.ms) * 1000).toFixed(0)} rows/s persisted`,
    );
  }
  client.close();
  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;
  reportFigure({
    id: 'scrape.tier-c-tick',
    figure: `Tier-C scrape tick, ${QUEUE_COUNT.toLocaleString('en')} queues on one node, none changed, with the rollup, queue totals and node sample (${String(TICKS)} ticks)`,
    target: '—',
    seen: `${range(ticks.map((tick) => tick.wall))} wall, ${range(ticks.map((tick) => tick.database))} database`,
  });

  // 2. The worker service for a minute per cadence: management POSTs versus ticks scheduled.
  const proxy = await countingProxy(new URL(node.managementUrl));
  await pool.query('DELETE FROM cluster');
  await saveCluster(databaseUrl, 'bench-proxied', [{ ...node, managementUrl: proxy.url }]);
  for (const intervals of CADENCES) {
    await storeSettings(databaseUrl, {
      'scrape.tier-a-interval': `${intervals.A}ms`,
      'scrape.tier-b-interval': `${intervals.B}ms`,
      'scrape.tier-c-interval': `${intervals.C}ms`,
      'scrape.page-size': String(PAGE_SIZE),
      'broker.management.timeout': '60s',
    });
    const worker = await startWorker(databaseUrl, 'bench-worker');
    const before = proxy.count();
    // The window opens at the scraper's first POST (its tiers start then) and closes just after a whole minute,
    // so a tick due at exactly 60 s counts on both sides.
    while (proxy.count() === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS + 500));
    const calls = proxy.count() - before;
    const elapsed = performance.now() - started;
    await worker.stop();
    // Each tier ticks once at start, then once per interval.
    const scheduled = Object.values(intervals).reduce((sum, interval) => sum + 1 + Math.floor(elapsed / interval), 0);
    const sweeps = await pool.query<{ tier: string; last_duration_ms: number }>(
      'SELECT tier, last_duration_ms FROM scrape_sweep ORDER BY tier',
    );
    console.log(
      `worker for ${(elapsed / 1000).toFixed(1)} s, tiers A/B/C every ${intervals.A}/${intervals.B}/${intervals.C} ms: ` +
        `${calls} management POSTs to the node, ${scheduled} ticks scheduled, ratio ${(calls / scheduled).toFixed(2)} ` +
        `(${((calls / elapsed) * 60_000).toFixed(1)} POSTs per minute); last sweeps took ` +
        sweeps.rows.map((row) => `${row.tier} ${row.last_duration_ms} ms`).join(', '),
    );
    reportFigure({
      id: `scrape.posts-per-tick-${String(intervals.A)}-${String(intervals.B)}-${String(intervals.C)}`,
      figure: `The worker scraping that node for a minute, tiers A/B/C every ${String(intervals.A)}/${String(intervals.B)}/${String(intervals.C)} ms: management POSTs per tick scheduled`,
      target: '—',
      seen: `${(calls / scheduled).toFixed(2)} (${String(calls)} POSTs, ${String(scheduled)} ticks scheduled)`,
    });
  }
  proxy.close();
} finally {
  await pool.end();
  await topology.stop();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
}
