// Broker events on a real PostgreSQL, with the stream on (a web runtime whose hub holds a subscriber of the
// `events` topic, fed from the bus exactly as in production). Prints three figures:
//   1. ingest: synthetic notifications through the EventWriter into broker_event, events per second sustained
//      over 60,000 (target ≥ 5,000/s);
//   2. 1,000 concurrent SSE subscribers on one web runtime: latency of a change signal from publish (by another
//      connection, through NOTIFY) to each subscriber's read, p50/p95 over 20 signals (target p95 < 250 ms), and the
//      process RSS with them connected (target < 300 MB; the bench's own clients are counted in it);
//   3. replay of 500 events after a Last-Event-ID, median of 20 (target < 100 ms).
//   npm run bench:events        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDatabaseBus } from '../src/base/db/bus.ts';
import { openDatabase } from '../src/base/db/database.ts';
import { migrate } from '../src/base/db/migrate.ts';
import type { BrokerEvent } from '../src/modules/platform/broker/index.ts';
import { handleStreamRequest, publishSignal } from '../src/modules/kernel/stream/index.ts';
import { EventWriter } from '../src/modules/feature/events/server/event-writer.ts';
import { createEventSource } from '../src/modules/feature/events/server/event-source.ts';
import { openWebRuntime, type WebRuntime } from '../src/server/runtime/web-runtime.ts';
import { reportFigure } from './report.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');

const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const INGEST_EVENTS = 60_000;
const SUBSCRIBERS = 1_000;
const SIGNALS = 20;
const context = { requestId: 'bench', actor: { name: 'bench', userId: null }, sourceIp: null };

function syntheticEvent(clusterId: string, nodeId: string, index: number): BrokerEvent {
  return {
    kind: index % 2 === 0 ? 'CONSUMER_CREATED' : 'CONSUMER_CLOSED',
    nodeKey: nodeId,
    clusterKey: clusterId,
    time: new Date().toISOString(),
    address: `orders.${index % 50}`,
    queue: `orders.${index % 50}`,
    consumerId: String(index),
    sessionId: randomUUID(),
    connectionId: randomUUID(),
    properties: {
      _AMQ_Distance: { type: 'int', value: 0 },
      _AMQ_ConsumerCount: { type: 'int', value: index % 7 },
      _AMQ_RemoteAddress: { type: 'string', value: `/127.0.0.1:${40_000 + (index % 1000)}` },
      _AMQ_User: { type: 'string', value: 'app' },
      _AMQ_FilterString: { type: 'null', value: null },
    },
  };
}

/** An in-process SSE client of the stream endpoint; calls `onText` with each chunk as it is read. */
function subscribe(web: WebRuntime, clusterId: string, topics: string, onText: (text: string) => void) {
  const controller = new AbortController();
  const request = new Request(`http://127.0.0.1/api/v1/stream?clusterId=${clusterId}&topics=${topics}`, {
    signal: controller.signal,
  });
  const response = handleStreamRequest(request, context, {
    hub: web.stream,
    replay: web.replay,
    enabledTopics: new Set(['events', 'queues']),
    keepAliveMs: () => 20_000,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => undefined);
      if (!chunk || chunk.done) return;
      onText(decoder.decode(chunk.value, { stream: true }));
    }
  })();
  return () => controller.abort();
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function main(): Promise<void> {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const worker = openDatabase(databaseUrl, { poolSize: 4, applicationName: 'bench-events-worker' });
  const workerBus = createDatabaseBus(databaseUrl, worker.pool, 'bench-events-worker');
  let web: WebRuntime | undefined;
  const closers: Array<() => void> = [];
  try {
    await migrate(databaseUrl, { log: () => undefined });
    await workerBus.ready();
    web = await openWebRuntime({ DATABASE_URL: databaseUrl, FLOTILLA_INSTANCE_ID: 'bench-web' });
    const clusterId = randomUUID();
    const nodeId = randomUUID();

    // 1. Ingest, with a live-tail subscriber of the cluster's events.
    let streamed = 0;
    closers.push(subscribe(web, clusterId, 'events', (text) => (streamed += text.split('event: events').length - 1)));
    const writer = new EventWriter({
      pool: worker.pool,
      owns: () => true,
      capacity: () => 100_000,
      publishSignal: (topic, cluster) => publishSignal(workerBus, topic, cluster),
      notify: (channel, payload) => workerBus.notify(channel, payload),
      governance: { db: worker, bus: workerBus },
    });
    const started = performance.now();
    for (let index = 0; index < INGEST_EVENTS; index++) {
      writer.consume(syntheticEvent(clusterId, nodeId, index));
      // Hand the loop back now and then, as a subscription's receive loop does between messages.
      if (index % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
    }
    await writer.flush();
    const seconds = (performance.now() - started) / 1000;
    const stored = Number((await worker.query<{ n: string }>('SELECT count(*) AS n FROM broker_event'))[0]?.n);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    console.log(
      `ingest: ${stored.toLocaleString('en')} events in ${seconds.toFixed(2)} s = ${Math.round(stored / seconds).toLocaleString('en')} events/s` +
        ` (target ≥ 5,000/s); the live-tail subscriber received ${streamed.toLocaleString('en')}` +
        (streamed < stored
          ? ' (it fell behind and was told to reconnect: a client then replays with Last-Event-ID)'
          : ''),
    );
    reportFigure({
      id: 'events.ingest-rate',
      figure: `Broker events ingested into broker_event through the event writer, stream on, each masked by the policy and its original sealed (${INGEST_EVENTS.toLocaleString('en')} events)`,
      target: '≥ 5,000/s',
      seen: `${Math.round(stored / seconds).toLocaleString('en')} events/s (${stored.toLocaleString('en')} in ${seconds.toFixed(2)} s)`,
      holds: stored === INGEST_EVENTS && stored / seconds >= 5_000,
    });
    await writer.stop();

    // 3. Replay of 500 after a Last-Event-ID.
    const source = createEventSource({ pool: worker.pool, db: worker, bus: workerBus });
    const last = Number((await worker.query<{ max: string }>('SELECT max(seq) AS max FROM broker_event'))[0]?.max);
    const times: number[] = [];
    for (let run = 0; run < 21; run++) {
      const t = performance.now();
      const answer = await source.replay(clusterId, String(last - 500), 500);
      if (answer.events.length !== 500) throw new Error(`replay answered ${answer.events.length} events`);
      if (run > 0) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `replay of 500 events: median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (target < 100 ms)`,
    );
    reportFigure({
      id: 'events.replay-500',
      figure: 'Replay of 500 events after a Last-Event-ID, 20 runs',
      target: '< 100 ms',
      seen: `median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
      holds: percentile(times, 95) < 100,
    });

    // 2. 1,000 subscribers of one cluster's change signals. RSS before and after, with the ingest's garbage
    // collected first (node --expose-gc), so the subscribers' own cost shows.
    const collect = (globalThis as { gc?: () => void }).gc;
    collect?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baselineMb = process.memoryUsage().rss / 2 ** 20;
    const signalCluster = randomUUID();
    const latencies: number[] = [];
    for (let index = 0; index < SUBSCRIBERS; index++) {
      closers.push(
        subscribe(web, signalCluster, 'queues', (text) => {
          const now = Date.now();
          // Each signal carries its publish time (`ts`); the latency is the read time minus it.
          for (const match of text.matchAll(/"ts":"([^"]+)"/g)) latencies.push(now - Date.parse(match[1] ?? ''));
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    collect?.();
    const rssMb = process.memoryUsage().rss / 2 ** 20;
    const publisher = openDatabase(databaseUrl, { poolSize: 1, applicationName: 'bench-events-publisher' });
    const publisherBus = createDatabaseBus(databaseUrl, publisher.pool, 'bench-events-publisher');
    for (let signal = 0; signal < SIGNALS; signal++) {
      await publishSignal(publisherBus, 'queues', signalCluster);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    latencies.sort((a, b) => a - b);
    console.log(
      `${SUBSCRIBERS.toLocaleString('en')} SSE subscribers: ${latencies.length.toLocaleString('en')} of ${(SUBSCRIBERS * SIGNALS).toLocaleString('en')} signals read,` +
        ` latency p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms (target < 250 ms);` +
        ` RSS ${rssMb.toFixed(0)} MB with them connected, ${baselineMb.toFixed(0)} MB before (target < 300 MB; this one` +
        ` process also holds the bench's worker side and the 1,000 clients)`,
    );
    const subscribers = `${SUBSCRIBERS.toLocaleString('en')} SSE subscribers of one web runtime`;
    reportFigure({
      id: 'events.sse-signal-p95',
      figure: `${subscribers}: change-signal latency, publish (through NOTIFY) → each subscriber's read, ${String(SIGNALS)} signals`,
      target: 'p95 < 250 ms',
      seen: `p50 ${String(percentile(latencies, 50))} ms, p95 ${String(percentile(latencies, 95))} ms (${latencies.length.toLocaleString('en')} of ${(SUBSCRIBERS * SIGNALS).toLocaleString('en')} signals read)`,
      holds: latencies.length === SUBSCRIBERS * SIGNALS && percentile(latencies, 95) < 250,
    });
    reportFigure({
      id: 'events.sse-rss',
      figure: `${subscribers}: process RSS with them connected (the one bench process, worker side and clients included, after a GC)`,
      target: '< 300 MB',
      seen: `${rssMb.toFixed(0)} MB (${baselineMb.toFixed(0)} MB before)`,
      holds: rssMb < 300,
    });
    await publisherBus.close();
    await publisher.close();
  } finally {
    for (const close of closers) close();
    await web?.close();
    await workerBus.close();
    await worker.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
