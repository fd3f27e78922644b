// The request-reply correlator on a real PostgreSQL, fed as sql's capture bus feeds it (RrRuntime.captured, one
// captured request and, a few milliseconds later, its captured reply, the way a tap on each address hands them over).
// Prints the pairs per second it kept up with over 30 s at an offered 2,000 pairs/s, and the p95 of the state latency:
// from when the reply was seen to when its COMPLETED row was committed to rr_event (target: keeps up with 2,000/s,
// p95 < 1 s). Beside it, the writer commits every pass (200 ms) with the AWAITING rows of pairs still open.
//   node --import tsx bench/rr-correlator.bench.ts   (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomUUID } from 'node:crypto';
import { createDatabaseBus } from '../src/base/db/bus.ts';
import { DEFAULT_SETTINGS } from '@test/default-settings.ts';
import type { CapturedShape } from '../src/modules/feature/rr/server/feeds/observed.ts';
import { RrRuntime } from '../src/modules/feature/rr/server/runtime/rr-runtime.ts';
import { RrWriter } from '../src/modules/feature/rr/server/store/rr-writer.ts';
import { withBenchDatabase } from './bench-support.ts';
import { reportFigure } from './report.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');

const PAIRS_PER_SECOND = 2_000;
const SECONDS = 30;
const TICK_MS = 10;
const REPLY_AFTER_MS = 5;

function message(clusterId: string, nodeId: string, fields: Partial<CapturedShape>): CapturedShape {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    address: 'orders.requests',
    clusterId,
    nodeId,
    correlation_id: null,
    reply_to: null,
    expiration: null,
    time: now,
    sentAt: now,
    receivedAt: now,
    properties: { tenant: 't1', channel: 'web' },
    ...fields,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await withBenchDatabase('bench-rr', async (db) => {
  const clusterId = randomUUID();
  const nodeId = randomUUID();
  const bus = createDatabaseBus(String(db.pool.options.connectionString), db.pool, 'bench-rr');
  await bus.ready();
  // rr_event rows belong to a registered cluster (a removed one takes them along).
  await db.query(
    `INSERT INTO cluster (id, name, username, password_cipher, password_key_id) VALUES ($1, 'bench', 'bench', 'x', 'none')`,
    [clusterId],
  );
  const latencies: number[] = [];
  let completed = 0;
  const writer = new RrWriter({
    pool: db.pool,
    governance: { db, bus },
    publishSignal: () => Promise.resolve(),
    onStored: (_cluster, correlations, storedAt) => {
      for (const correlation of correlations) {
        if (correlation.state !== 'COMPLETED') continue;
        completed += 1;
        latencies.push(storedAt - correlation.stateAt);
      }
    },
  });
  const runtime = new RrRuntime({
    prisma: db.prisma,
    settings: DEFAULT_SETTINGS,
    owns: () => true,
    owned: () => [clusterId],
    writer,
    capturedAddresses: () => Promise.resolve(new Set(['orders.requests', 'orders.replies'])),
  });
  runtime.start();
  const perTick = (PAIRS_PER_SECOND * TICK_MS) / 1000;
  const ticks = (SECONDS * 1000) / TICK_MS;
  const started = performance.now();
  for (let tick = 0; tick < ticks; tick++) {
    const requests = Array.from({ length: perTick }, () =>
      message(clusterId, nodeId, { correlation_id: `corr-${randomUUID()}`, reply_to: 'orders.replies' }),
    );
    runtime.captured(requests);
    setTimeout(() => {
      const replies = requests.map((request) =>
        message(clusterId, nodeId, { address: 'orders.replies', correlation_id: request.correlation_id }),
      );
      runtime.captured(replies);
    }, REPLY_AFTER_MS);
    const due = started + (tick + 1) * TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
  }
  const offeredSeconds = (performance.now() - started) / 1000;
  const offered = perTick * ticks;
  const deadline = performance.now() + 10_000;
  while (completed < offered && performance.now() < deadline) await sleep(50);
  const drainedSeconds = (performance.now() - started) / 1000;
  await runtime.stop();
  await bus.close();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(share * latencies.length) - 1)] ?? NaN;
  const [row] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM rr_event WHERE state = 'COMPLETED'`);
  console.log(
    `rr correlator: ${offered.toLocaleString('en')} pairs offered at ${PAIRS_PER_SECOND.toLocaleString('en')}/s over ${offeredSeconds.toFixed(1)} s; ` +
      `${completed.toLocaleString('en')} COMPLETED stored (${String(row?.n)} rows) by ${drainedSeconds.toFixed(1)} s = ${Math.round(completed / drainedSeconds).toLocaleString('en')} pairs/s; ` +
      `state latency (reply seen → row committed) p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${at(1).toFixed(0)} ms (target: 2,000 pairs/s, p95 < 1,000 ms)`,
  );
  const fed = `Request-reply correlator fed as the capture bus feeds it (a request, its reply ${String(REPLY_AFTER_MS)} ms later), every pair upserted into rr_event`;
  reportFigure({
    id: 'rr.pairs-per-second',
    figure: `${fed}: pairs kept up with, ${PAIRS_PER_SECOND.toLocaleString('en')}/s offered for ${String(SECONDS)} s`,
    target: `keeps up with ${PAIRS_PER_SECOND.toLocaleString('en')} pairs/s (every pair committed within 1 s of the last offered)`,
    seen: `${Math.round(completed / drainedSeconds).toLocaleString('en')} pairs/s: ${completed.toLocaleString('en')} of ${offered.toLocaleString('en')} COMPLETED by ${drainedSeconds.toFixed(1)} s`,
    holds: completed === offered && drainedSeconds <= offeredSeconds + 1,
  });
  reportFigure({
    id: 'rr.state-latency-p95',
    figure: `${fed}: reply seen → COMPLETED row committed`,
    target: 'p95 < 1 s',
    seen: `p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`,
    holds: at(0.95) < 1_000,
  });
});
