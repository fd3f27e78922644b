// How large a PostgreSQL serves how many clusters and queues (issue 34, item 4), measured on the real PostgreSQL
// through Flotilla's own write paths (docs/postgres-sizing.md turns the figures into guidance):
//   1. storage: one simulated hour of the scrape at the default tier cadence (scrape.settings.ts: tier A every 5 s,
//      tier B's first page of 200 queues every 15 s, tier C's whole listing every 5 min) for 1,000 and 10,000 queue
//      cells (a queue on one node) on one cluster of two nodes, each node's tick persisted as the scraper persists
//      it (cluster-scraper.ts fetchAndPersist: upsertQueueRows with its metric_sample and metric_minute rows,
//      removeUnlisted, refreshQueueTotals, sampleNodeTotals, recordSweep; tier A recordNodePoll and recordSweep) and
//      the cluster's verdicts refreshed as verdict-refresher.worker.ts does (consumerHealthOf then storeVerdicts, after
//      every tier-C sweep and after a tier-B one at most once a minute), each size in a fresh database; pg_total_relation_size of every table (partitions summed into their parent) before
//      and after. From the two runs: bytes per cell per day for a cell in its node's first page (tier B) and for one
//      read by tier C alone, extrapolated to the retention (scrape.metric-retention). Autovacuum is stood in for by a
//      VACUUM of the written tables every simulated 5 minutes (this server runs with autovacuum off). Broker events
//      (through the EventWriter) and audit rows (openAudit, then finish) are measured per row.
//   2. write throughput: four clusters of two nodes, 2,000 cells per node (the fleet home's shape), every node
//      replaying the default schedule (and the verdict refresh) as fast as it goes, all at once on a pool of 10 (the default
//      FLOTILLA_DB_POOL_SIZE) for THROUGHPUT_SECONDS: queue samples per second absorbed, how many nodes of 2,000 cells
//      that serves at the default cadence, and the CPU the database's backends used (from /proc).
//   3. connections: Flotilla started as `npm start` starts it on a fresh database, one cluster registered (its one
//      node a closed loopback port: the worker owns it and scrapes it, every call failing fast); pg_stat_activity rows
//      of the database by application_name, idle (after the pool's 30 s idle timeout) and the most seen under a small
//      load (LOAD_CLIENTS clients reading the API back to back).
//   npm run bench:pg-sizing            (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
//   npm run bench:pg-sizing -- storage|throughput|connections     one part only (or PG_SIZING_PARTS=connections)
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { PoolClient } from 'pg';
import pg from 'pg';
import { AppProcess, freePort } from '@test/app-process.ts';
import type { BrokerNode } from '@test/artemis/index.ts';
import { signIn } from '@test/sign-in.ts';
import { saveCluster, TEST_SECRET_KEY } from '@test/worker-kit.ts';
import { createDatabaseBus, type DatabaseBus } from '../src/base/db/bus.ts';
import { openDatabase, type Database } from '../src/base/db/database.ts';
import { migrate } from '../src/base/db/migrate.ts';
import { inTransaction } from '../src/base/db/transaction.ts';
import { openAudit } from '../src/modules/kernel/audit/index.ts';
import { parseDuration } from '../src/modules/kernel/plugin/index.ts';
import { DEFAULT_SETTINGS } from '@test/default-settings.ts';
import { consumerHealthOf } from '../src/modules/feature/metrics/server/consumer-health-read.ts';
import { storeVerdicts } from '../src/modules/feature/metrics/server/verdict-store.ts';
import { EventWriter } from '../src/modules/feature/events/server/event-writer.ts';
import type { BrokerEvent } from '../src/modules/platform/broker/index.ts';
import { recordNodePoll } from '../src/modules/platform/clusters/index.ts';
import { makeDayPartitions } from '../src/modules/platform/scrape/index.ts';
import { makePartitionsAhead } from '../src/modules/platform/scrape/server/partition-maintenance.ts';
import {
  keysOf,
  removeUnlisted,
  sampleNodeTotals,
  upsertQueueRows,
} from '../src/modules/platform/scrape/server/queue-persist.ts';
import type { QueueRow } from '../src/modules/platform/scrape/server/queue-rows.ts';
import { refreshQueueTotals } from '../src/modules/platform/scrape/server/queue-totals.ts';
import { SCRAPE_SETTINGS } from '../src/modules/platform/scrape/server/scrape.settings.ts';
import { recordSweep } from '../src/modules/platform/scrape/server/sweep-persist.ts';
import { buildIfNeeded } from '../src/server/process/build.ts';
import { createBenchDatabase } from './bench-support.ts';
import { reportFigure } from './report.ts';

process.env.FLOTILLA_SECRET_KEY ??= TEST_SECRET_KEY;

const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const STORAGE_CELLS = [1_000, 10_000] as const;
const NODES = 2;
const THROUGHPUT_CLUSTERS = 4;
const THROUGHPUT_CELLS_PER_NODE = 2_000;
const THROUGHPUT_SECONDS = Number(process.env.PG_SIZING_SECONDS ?? '60');
const POOL_SIZE = 10;
const EVENTS = 10_000;
const AUDITS = 2_000;
const LOAD_CLIENTS = 20;
const LOAD_SECONDS = 20;
/** Of the capacity measured, the share a PostgreSQL should be asked for: the rest is headroom (reads, bursts). */
const HEADROOM_SHARE = 0.5;
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

const ms = (setting: { readonly defaultValue: unknown }) => {
  const value = parseDuration(setting.defaultValue);
  if (value === undefined) throw new Error(`not a duration: ${String(setting.defaultValue)}`);
  return value;
};
const DEFAULTS = {
  A: ms(SCRAPE_SETTINGS.tierA),
  B: ms(SCRAPE_SETTINGS.tierB),
  C: ms(SCRAPE_SETTINGS.tierC),
  firstPage: Number(SCRAPE_SETTINGS.firstPageSize.defaultValue),
  retention: ms(SCRAPE_SETTINGS.metricRetention),
};
/** Day partitions kept at the peak: every day whose end is after now − retention, today's included. */
const DAYS_KEPT = DEFAULTS.retention / DAY_MS + 1;

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const thousands = (value: number) => Math.round(value).toLocaleString('en');

// ---------------------------------------------------------------------------------------------------------------
// The scrape's persist step, tick by tick, as cluster-scraper.ts runs it after a node answered.

interface SimulatedNode {
  readonly clusterId: string;
  readonly nodeId: string;
  readonly cells: number;
  readonly db: Database;
  /** The cluster's first node also plays the verdict refresher of its cluster (verdict-refresher.worker.ts). */
  readonly judges: boolean;
}

/** The verdict refresher's minimum interval per cluster after a tier-B sweep (verdict-refresher.worker.ts). */
const VERDICT_MIN_INTERVAL_MS = 60_000;

/** The consumer health of the node's cluster judged and stored, as the verdict refresher does after a sweep. */
async function refreshVerdicts(node: SimulatedNode, at: Date): Promise<number> {
  const { items } = await consumerHealthOf(
    { db: node.db, prisma: node.db.prisma, settings: DEFAULT_SETTINGS },
    node.clusterId,
    at,
  );
  await storeVerdicts(node.db, node.clusterId, items, at);
  return items.length;
}

/** The node's listing as the broker would answer it: the first `count` queues, counters that moved since. */
function listing(node: SimulatedNode, count: number, at: number): QueueRow[] {
  const step = Math.floor(at / 1_000);
  return Array.from({ length: Math.min(count, node.cells) }, (_, index) => {
    const added = step * ((index % 13) + 1);
    const acked = Math.max(0, added - (index % 50));
    const name = `sizing.q.${String(index).padStart(5, '0')}`;
    return {
      address: name,
      name,
      routingType: 'ANYCAST',
      messageCount: added - acked,
      consumerCount: index % 3,
      deliveringCount: index % 5,
      messagesAdded: added,
      messagesAcked: acked,
      messagesExpired: 0,
      messagesKilled: 0,
      paused: false,
      durable: true,
      temporary: false,
      internal: false,
    };
  });
}

/** Tier A: the HA state recorded and the sweep. */
async function persistHa(node: SimulatedNode, at: Date): Promise<void> {
  await inTransaction(node.db.pool, async (client) => {
    await recordNodePoll(client, node.nodeId, at, {
      active: true,
      started: true,
      backup: false,
      replicaSync: false,
      nodeId: node.nodeId,
    });
    await recordSweep(client, {
      clusterId: node.clusterId,
      nodeId: node.nodeId,
      tier: 'A',
      instanceId: 'bench',
      startedAt: at,
      finishedAt: at,
      rowsPersisted: 1,
      limiterWaitMs: 0,
      intervalMs: DEFAULTS.A,
    });
  });
}

/** Tiers B and C: the listing persisted with its samples, totals, node sample and sweep; answers the samples written. */
async function persistListing(node: SimulatedNode, tier: 'B' | 'C', at: Date, rows: QueueRow[]): Promise<number> {
  return inTransaction(node.db.pool, async (client: PoolClient) => {
    const target = { clusterId: node.clusterId, nodeId: node.nodeId, tier, listedAt: at };
    const written = await upsertQueueRows(client, target, rows);
    const complete = tier === 'C';
    if (complete) await removeUnlisted(client, node.nodeId, at);
    await refreshQueueTotals(client, node.clusterId, complete ? undefined : keysOf(rows));
    await sampleNodeTotals(client, target);
    await recordSweep(client, {
      clusterId: node.clusterId,
      nodeId: node.nodeId,
      tier,
      instanceId: 'bench',
      startedAt: at,
      finishedAt: at,
      rowsPersisted: written.upserted,
      listedTotal: node.cells,
      limiterWaitMs: 0,
      intervalMs: tier === 'B' ? DEFAULTS.B : DEFAULTS.C,
    });
    return written.sampled;
  });
}

interface Tick {
  readonly at: number;
  readonly tier: 'A' | 'B' | 'C';
}

/** The default schedule's ticks over [0, span): each tier at 0 and every interval; C just after the B it follows. */
function schedule(span: number): Tick[] {
  const ticks: Tick[] = [];
  for (const tier of ['A', 'B', 'C'] as const) {
    for (let at = 0; at < span; at += DEFAULTS[tier]) ticks.push({ at: tier === 'C' ? at + 500 : at, tier });
  }
  return ticks.sort((a, b) => a.at - b.at);
}

/**
 * Runs one node's ticks from `start` (ms since the epoch) in order, until `shouldStop` says so; a judging node then
 * refreshes its cluster's verdicts after every tier-C sweep and after a tier-B one a minute or more after the last.
 */
async function replay(
  node: SimulatedNode,
  start: number,
  ticks: readonly Tick[],
  shouldStop: () => boolean = () => false,
): Promise<{ samples: number; transactions: number; evaluations: number; simulatedMs: number }> {
  let samples = 0;
  let transactions = 0;
  let evaluations = 0;
  let simulatedMs = 0;
  let judgedAt = -Infinity;
  for (const tick of ticks) {
    if (shouldStop()) break;
    const at = new Date(start + tick.at);
    if (tick.tier === 'A') await persistHa(node, at);
    else {
      const rows = listing(node, tick.tier === 'B' ? DEFAULTS.firstPage : node.cells, start + tick.at);
      samples += await persistListing(node, tick.tier, at, rows);
      if (node.judges && (tick.tier === 'C' || tick.at - judgedAt >= VERDICT_MIN_INTERVAL_MS)) {
        judgedAt = tick.at;
        await refreshVerdicts(node, at);
        evaluations++;
      }
    }
    transactions++;
    simulatedMs = tick.at;
  }
  return { samples, transactions, evaluations, simulatedMs };
}

// ---------------------------------------------------------------------------------------------------------------
// Databases, clusters and sizes.

async function freshDatabase(applicationName: string, poolSize: number) {
  const database = await createBenchDatabase();
  await migrate(database.url, { log: () => undefined });
  const db = openDatabase(database.url, { poolSize, applicationName });
  return {
    ...database,
    db,
    async close() {
      await db.close();
      // The pool's sockets close just after end() resolves: the forced drop would otherwise cut them (a warning each).
      await new Promise((resolve) => setTimeout(resolve, 500));
      await database.drop();
    },
  };
}

/** A cluster of `nodes` nodes saved as registration saves it; the management URLs are never called. */
async function savedCluster(url: string, name: string, nodes: number, port = 9) {
  const brokers = Array.from(
    { length: nodes },
    (_, index) =>
      ({
        name: `${name}-${String(index)}`,
        managementUrl: `http://127.0.0.1:${String(port)}/console/jolokia?node=${String(index)}`,
        amqpUrl: `amqp://127.0.0.1:${String(port)}`,
        user: 'bench',
        password: 'bench',
      }) as BrokerNode,
  );
  return saveCluster(url, name, brokers);
}

/** Bytes per table, partitions summed into their parent (metric_sample_p20261206 → metric_sample). */
async function tableSizes(db: Database): Promise<Map<string, { total: number; indexes: number }>> {
  const rows = await db.query<{ name: string; total: string; indexes: string }>(
    `SELECT regexp_replace(c.relname, '_p[0-9]{8}$', '') AS name,
            sum(pg_total_relation_size(c.oid))::text AS total, sum(pg_indexes_size(c.oid))::text AS indexes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'
      GROUP BY 1`,
  );
  return new Map(rows.map((row) => [row.name, { total: Number(row.total), indexes: Number(row.indexes) }]));
}

function grown(before: Map<string, { total: number; indexes: number }>, after: typeof before) {
  const delta = new Map<string, { total: number; indexes: number }>();
  for (const [name, size] of after) {
    const was = before.get(name) ?? { total: 0, indexes: 0 };
    if (size.total !== was.total)
      delta.set(name, { total: size.total - was.total, indexes: size.indexes - was.indexes });
  }
  return delta;
}

/** The written tables, vacuumed as autovacuum would keep them (this server has it off). */
const VACUUMED = [
  'metric_sample',
  'metric_minute',
  'node_metric_sample',
  'queue_snapshot',
  'queue_total',
  'queue_verdict',
];
const VACUUMED_TOO = ['scrape_sweep', 'cluster_node'];

/** Tables that grow with time (kept for the retention) against tables whose size follows the cells alone. */
const GROWING = new Set(['metric_sample', 'metric_minute', 'node_metric_sample']);

// ---------------------------------------------------------------------------------------------------------------
// 1. Storage.

interface HourRun {
  readonly cells: number;
  readonly tierBCells: number;
  readonly delta: Map<string, { total: number; indexes: number }>;
  readonly samples: number;
  readonly rows: Map<string, number>;
  readonly seconds: number;
}

async function simulatedHour(cells: number): Promise<HourRun> {
  const database = await freshDatabase('bench-pg-sizing', POOL_SIZE);
  try {
    const { db } = database;
    const start = Date.now() - HOUR_MS - 60_000;
    await makePartitionsAhead((sql) => db.query(sql));
    await makeDayPartitions((sql) => db.query(sql), [new Date(start)]);
    const { clusterId, nodes } = await savedCluster(database.url, 'sizing', NODES);
    const simulated = nodes.map((node, index) => ({
      clusterId,
      nodeId: node.id,
      cells: cells / NODES,
      db,
      judges: index === 0,
    }));
    await db.query('VACUUM ANALYZE');
    const before = await tableSizes(db);
    const started = performance.now();
    let samples = 0;
    let evaluations = 0;
    // Five-minute slices (one tier-C tick each), every node at once, then the vacuum autovacuum would run.
    const slice = schedule(DEFAULTS.C);
    for (let from = 0; from < HOUR_MS; from += DEFAULTS.C) {
      const done = await Promise.all(simulated.map((node) => replay(node, start + from, slice)));
      samples += done.reduce((sum, run) => sum + run.samples, 0);
      evaluations += done.reduce((sum, run) => sum + run.evaluations, 0);
      await db.query(`VACUUM ${[...VACUUMED, ...VACUUMED_TOO].join(', ')}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const delta = grown(before, await tableSizes(db));
    const counted = await db.query<{ name: string; n: string }>(
      `SELECT 'metric_sample' AS name, count(*)::text AS n FROM metric_sample
       UNION ALL SELECT 'metric_minute', count(*)::text FROM metric_minute
       UNION ALL SELECT 'node_metric_sample', count(*)::text FROM node_metric_sample
       UNION ALL SELECT 'queue_snapshot', count(*)::text FROM queue_snapshot
       UNION ALL SELECT 'queue_total', count(*)::text FROM queue_total
       UNION ALL SELECT 'queue_verdict', count(*)::text FROM queue_verdict`,
    );
    // The verdict rows the hour's refreshes wrote (ADR 36: only the changed ones); a backend's counts reach the
    // statistics at most 10 s after its last transaction.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const [verdictWrites] = await db.query<{ ins: string; upd: string; del: string }>(
      `SELECT n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del FROM pg_stat_user_tables
        WHERE relname = 'queue_verdict'`,
    );
    const tierBCells = Math.min(DEFAULTS.firstPage, cells / NODES) * NODES;
    console.log(
      `\nstorage, one simulated hour of ${thousands(cells)} cells on ${String(NODES)} nodes (${String(tierBCells)} in tier B's first pages) ` +
        `at the default cadence: ${thousands(samples)} samples written, ${String(evaluations)} verdict refreshes, in ${seconds.toFixed(0)} s (load ${load()})`,
    );
    console.log(
      'table                  grew by      of it indexes   rows\n' +
        [...delta.entries()]
          .sort((a, b) => b[1].total - a[1].total)
          .map(
            ([name, size]) =>
              `${name.padEnd(22)} ${mb(size.total).padStart(10)}   ${mb(size.indexes).padStart(10)}   ${thousands(Number(counted.find((row) => row.name === name)?.n ?? NaN)).padStart(9)}`,
          )
          .join('\n'),
    );
    console.log(
      `queue_verdict rows written by the ${String(evaluations)} verdict refreshes: ${thousands(Number(verdictWrites?.ins))} inserted, ` +
        `${thousands(Number(verdictWrites?.upd))} updated, ${thousands(Number(verdictWrites?.del))} deleted`,
    );
    return {
      cells,
      tierBCells,
      delta,
      samples,
      seconds,
      rows: new Map(counted.map((row) => [row.name, Number(row.n)])),
    };
  } finally {
    await database.close();
  }
}

function syntheticEvent(clusterId: string, nodeId: string, index: number): BrokerEvent {
  return {
    kind: index % 2 === 0 ? 'CONSUMER_CREATED' : 'CONSUMER_CLOSED',
    nodeKey: nodeId,
    clusterKey: clusterId,
    time: new Date().toISOString(),
    address: `orders.${String(index % 50)}`,
    queue: `orders.${String(index % 50)}`,
    consumerId: String(index),
    sessionId: randomUUID(),
    connectionId: randomUUID(),
    properties: {
      _AMQ_Distance: { type: 'int', value: 0 },
      _AMQ_ConsumerCount: { type: 'int', value: index % 7 },
      _AMQ_RemoteAddress: { type: 'string', value: `/127.0.0.1:${String(40_000 + (index % 1000))}` },
      _AMQ_User: { type: 'string', value: 'app' },
      _AMQ_FilterString: { type: 'null', value: null },
    },
  };
}

/** Bytes per broker event (EventWriter) and per audit row (openAudit, then finish), each table's growth over its rows. */
async function perRowSizes(): Promise<{ event: number; audit: number }> {
  const database = await freshDatabase('bench-pg-sizing-rows', 4);
  let bus: DatabaseBus | undefined;
  try {
    const { db } = database;
    bus = createDatabaseBus(database.url, db.pool, 'bench-pg-sizing-rows');
    await bus.ready();
    const { clusterId, nodes } = await savedCluster(database.url, 'rows', 1);
    const nodeId = nodes[0]?.id ?? '';
    const before = await tableSizes(db);
    const ownBus = bus;
    const writer = new EventWriter({
      pool: db.pool,
      owns: () => true,
      capacity: () => 100_000,
      publishSignal: () => Promise.resolve(),
      notify: (channel, payload) => ownBus.notify(channel, payload),
      governance: { db, bus: ownBus },
    });
    for (let index = 0; index < EVENTS; index++) {
      writer.consume(syntheticEvent(clusterId, nodeId, index));
      if (index % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
    }
    await writer.stop();
    const request = { requestId: 'bench-pg-sizing', actor: { name: 'operator1', userId: null }, sourceIp: '127.0.0.1' };
    for (let index = 0; index < AUDITS; index++) {
      const queue = `orders.${String(index % 500)}`;
      const audit = await openAudit(db.prisma, request, {
        action: 'queue.purge',
        target: queue,
        parameters: { queue, filter: null },
        dryRun: index % 2 === 0,
        cluster: { id: clusterId, name: 'rows' },
      });
      await audit.finish({ outcome: 'SUCCEEDED', nodeDetail: [{ node: 'rows-0', removed: index % 100 }] });
    }
    await db.query('VACUUM broker_event, audit_event');
    const delta = grown(before, await tableSizes(db));
    const stored = await db.query<{ events: string; audits: string }>(
      'SELECT (SELECT count(*) FROM broker_event)::text AS events, (SELECT count(*) FROM audit_event)::text AS audits',
    );
    const events = Number(stored[0]?.events);
    const audits = Number(stored[0]?.audits);
    const event = (delta.get('broker_event')?.total ?? NaN) / events;
    const audit = (delta.get('audit_event')?.total ?? NaN) / audits;
    console.log(
      `\nper row: broker_event ${mb(delta.get('broker_event')?.total ?? NaN)} for ${thousands(events)} events = ${thousands(event)} B/event; ` +
        `audit_event ${mb(delta.get('audit_event')?.total ?? NaN)} for ${thousands(audits)} rows = ${thousands(audit)} B/row` +
        ` (other tables grown: ${[...delta.keys()].filter((name) => name !== 'broker_event' && name !== 'audit_event').join(', ') || 'none'})`,
    );
    return { event, audit };
  } finally {
    await bus?.close();
    await database.close();
  }
}

async function storage(): Promise<void> {
  const machineLoad = load();
  const small = await simulatedHour(STORAGE_CELLS[0]);
  const large = await simulatedHour(STORAGE_CELLS[1]);
  const grownBy = (run: HourRun, names: (name: string) => boolean) =>
    [...run.delta.entries()].filter(([name]) => names(name)).reduce((sum, [, size]) => sum + size.total, 0);
  const perQueue = (name: string) => name === 'metric_sample' || name === 'metric_minute';
  // Both runs have the same tier-B cells and nodes: the difference is tier-C-only cells.
  const tierCOnly = (run: HourRun) => run.cells - run.tierBCells;
  const cHour = (grownBy(large, perQueue) - grownBy(small, perQueue)) / (tierCOnly(large) - tierCOnly(small));
  const bHour = (grownBy(small, perQueue) - tierCOnly(small) * cHour) / small.tierBCells;
  const nodeHour = grownBy(large, (name) => name === 'node_metric_sample') / NODES;
  const steady = (run: HourRun) => grownBy(run, (name) => !GROWING.has(name)) / run.cells;
  const day = (hour: number) => hour * 24;
  console.log(
    `\nper cell per day (tables and indexes): tier B (first page) ${thousands(day(bHour))} B, tier C only ${thousands(day(cHour))} B;` +
      ` per node per day (node samples) ${thousands(day(nodeHour))} B; at the retention (${String(DEFAULTS.retention / DAY_MS)} d: up to ${String(DAYS_KEPT)} day partitions)` +
      ` × ${String(DAYS_KEPT)}; the rows that do not grow with time (queue_snapshot, queue_total, sweeps, nodes): ${thousands(steady(small))} B/cell at 1,000, ${thousands(steady(large))} B/cell at 10,000`,
  );
  reportFigure({
    id: 'pg-sizing.bytes-per-cell-day',
    figure: `PostgreSQL storage per queue cell (a queue on one node) per day at the default cadence, metric_sample + metric_minute with indexes, from one simulated hour of 1,000 and 10,000 cells on 2 nodes through the scrape's persist step (vacuumed every 5 simulated min)`,
    target: '—',
    seen: `tier C only (every 5 min) ${(day(cHour) / 1024).toFixed(0)} kB, in a node's first page (every 15 s) ${(day(bHour) / 2 ** 20).toFixed(2)} MB; node samples ${(day(nodeHour) / 1024).toFixed(0)} kB per node; load ${machineLoad}`,
  });
  reportFigure({
    id: 'pg-sizing.bytes-at-retention',
    figure: `The same at the default retention (${String(DEFAULTS.retention / DAY_MS)} d: up to ${String(DAYS_KEPT)} day partitions kept), and the rows that do not grow with time (queue_snapshot, queue_total, queue_verdict, sweeps)`,
    target: '—',
    seen: `per cell: tier C only ${mb(day(cHour) * DAYS_KEPT)}, first page ${mb(day(bHour) * DAYS_KEPT)}; not growing ${thousands(steady(large))} B/cell (10,000 cells)`,
  });
  const rows = await perRowSizes();
  reportFigure({
    id: 'pg-sizing.bytes-per-event-audit',
    figure: `Bytes per broker event (${thousands(EVENTS)} through the EventWriter, kept 72 h by default) and per audit row (${thousands(AUDITS)} purges through openAudit/finish, kept 365 d), table and indexes`,
    target: '—',
    seen: `${thousands(rows.event)} B/event, ${thousands(rows.audit)} B/audit row; load ${load()}`,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Write throughput.

/** utime + stime of a process in clock ticks, or 0 when it is gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The postgres server's own processes (checkpointer, walwriter…): shared with every database on it. */
function serverProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return /^postgres: [^ ]+: (checkpointer|background writer|walwriter)/.test(
          readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8'),
        );
      } catch {
        return false; // gone
      }
    });
}

async function throughput(): Promise<void> {
  const database = await freshDatabase('bench-pg-sizing-throughput', POOL_SIZE);
  try {
    const { db } = database;
    const start = Date.now() - HOUR_MS;
    await makePartitionsAhead((sql) => db.query(sql));
    await makeDayPartitions((sql) => db.query(sql), [new Date(start)]);
    const nodes: SimulatedNode[] = [];
    for (let cluster = 0; cluster < THROUGHPUT_CLUSTERS; cluster++) {
      const saved = await savedCluster(database.url, `tp-${String(cluster)}`, NODES);
      for (const [index, node] of saved.nodes.entries())
        nodes.push({
          clusterId: saved.clusterId,
          nodeId: node.id,
          cells: THROUGHPUT_CELLS_PER_NODE,
          db,
          judges: index === 0,
        });
    }
    // Every cell listed once first (rows made), then the measured window replays the default schedule.
    await Promise.all(nodes.map((node) => replay(node, start, [{ at: 0, tier: 'C' }])));
    await db.query('VACUUM ANALYZE');
    const backends = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    const ours = new Set(backends.map((row) => row.pid));
    const server = serverProcesses();
    const cpuOf = (pids: Iterable<number>) => [...pids].reduce((sum, pid) => sum + cpuTicks(pid), 0);
    const ourBefore = cpuOf(ours);
    const serverBefore = cpuOf(server);
    const processBefore = process.cpuUsage();
    const machineLoad = load();
    const stopAt = performance.now() + THROUGHPUT_SECONDS * 1000;
    const started = performance.now();
    const windowStart = start + 1_000;
    // The pool may open connections beyond the first ones: their pids are added as they appear.
    const watcher = setInterval(() => {
      void db
        .query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')
        .then((rows) => rows.forEach((row) => ours.add(row.pid)))
        .catch(() => undefined);
    }, 1_000);
    const runs = await Promise.all(
      nodes.map((node) => replay(node, windowStart, schedule(24 * HOUR_MS), () => performance.now() >= stopAt)),
    );
    clearInterval(watcher);
    const seconds = (performance.now() - started) / 1000;
    const ourCpu = (cpuOf(ours) - ourBefore) / CLOCK_TICKS;
    const serverCpu = (cpuOf(server) - serverBefore) / CLOCK_TICKS;
    const benchCpu = (() => {
      const used = process.cpuUsage(processBefore);
      return (used.user + used.system) / 1e6;
    })();
    const samples = runs.reduce((sum, run) => sum + run.samples, 0);
    const transactions = runs.reduce((sum, run) => sum + run.transactions, 0);
    const evaluations = runs.reduce((sum, run) => sum + run.evaluations, 0);
    const simulated = runs.reduce((sum, run) => sum + run.simulatedMs, 0) / 1000;
    const rate = samples / seconds;
    // Demand of one node of 2,000 cells at the default cadence: its first page every B, the whole listing every C.
    const perNode = DEFAULTS.firstPage / (DEFAULTS.B / 1000) + THROUGHPUT_CELLS_PER_NODE / (DEFAULTS.C / 1000);
    const nodesServed = simulated / seconds;
    console.log(
      `\nthroughput: ${String(nodes.length)} nodes of ${thousands(THROUGHPUT_CELLS_PER_NODE)} cells replaying the default schedule at once for ${seconds.toFixed(0)} s` +
        ` on a pool of ${String(POOL_SIZE)}: ${thousands(samples)} samples, ${thousands(transactions)} transactions = ${thousands(rate)} samples/s,` +
        ` ${thousands(transactions / seconds)} transactions/s, ${String(evaluations)} verdict refreshes; ${simulated.toFixed(0)} node-seconds of the schedule = ${nodesServed.toFixed(0)} nodes served` +
        ` (one node asks ${perNode.toFixed(1)} samples/s); CPU: the database's backends ${ourCpu.toFixed(1)} s (${((ourCpu / seconds) * 100).toFixed(0)} % of one core),` +
        ` the server's checkpointer/bgwriter/walwriter ${serverCpu.toFixed(1)} s (shared), this bench's process ${benchCpu.toFixed(1)} s; load ${machineLoad} → ${load()}`,
    );
    reportFigure({
      id: 'pg-sizing.samples-per-second',
      figure: `Queue samples per second one PostgreSQL absorbed through the scrape's persist step: ${String(nodes.length)} nodes of ${thousands(THROUGHPUT_CELLS_PER_NODE)} cells replaying the default schedule (A/B/C) at once as fast as it went, pool of ${String(POOL_SIZE)}, ${String(THROUGHPUT_SECONDS)} s`,
      target: '—',
      seen: `${thousands(rate)} samples/s (${thousands(transactions / seconds)} tx/s); database backends ${((ourCpu / seconds) * 100).toFixed(0)} % of one core; load ${machineLoad}`,
    });
    reportFigure({
      id: 'pg-sizing.nodes-served',
      figure: `Nodes of ${thousands(THROUGHPUT_CELLS_PER_NODE)} cells that rate serves at the default cadence (${perNode.toFixed(1)} samples/s each), and at half of it (headroom for reads and bursts)`,
      target: '—',
      seen: `${nodesServed.toFixed(0)} nodes (${thousands(nodesServed * THROUGHPUT_CELLS_PER_NODE)} cells) flat out; ${(nodesServed * HEADROOM_SHARE).toFixed(0)} with headroom`,
    });
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Connections of one instance.

/** The database's sessions by application_name; unnamed ones are this bench's own (saveCluster's client). */
async function activity(admin: pg.Client, name: string): Promise<Map<string, number>> {
  const result = await admin.query<{ application_name: string; n: number }>(
    `SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name <> '' GROUP BY 1 ORDER BY 1`,
    [name],
  );
  return new Map(result.rows.map((row) => [row.application_name || '(none)', row.n]));
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
const described = (counts: Map<string, number>) =>
  [...counts.entries()].map(([name, n]) => `${name} ${String(n)}`).join(', ');

async function connections(): Promise<void> {
  buildIfNeeded(process.cwd());
  const database = await createBenchDatabase();
  const name = new URL(database.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: ADMIN_URL, application_name: 'bench-pg-sizing-watch' });
  await admin.connect();
  let app: AppProcess | undefined;
  try {
    app = AppProcess.start({
      port: await freePort(),
      env: { DATABASE_URL: database.url, FLOTILLA_SECRET_KEY: TEST_SECRET_KEY },
    });
    await app.waitUntilReady();
    // Every 100 ms from ready to the end (the supervisor's own migrate and set-up connections end before): the most rows at once, and the most of each application_name.
    const peak = new Map<string, number>();
    let peakTotal = 0;
    const watching = { on: true };
    const watch = (async () => {
      while (watching.on) {
        const now = await activity(admin, name);
        peakTotal = Math.max(peakTotal, total(now));
        for (const [application, n] of now) peak.set(application, Math.max(peak.get(application) ?? 0, n));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const headers = await signIn((request) => fetch(request), app.baseUrl);
    // A cluster for the worker to own: its node is a closed loopback port, so every scrape call fails at once.
    const closed = await freePort();
    const { clusterId } = await savedCluster(database.url, 'connections', 1, closed);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const started = await activity(admin, name);
    console.log(
      `\nconnections just after start and a cluster taken: ${String(total(started))} (${described(started)})`,
    );
    // Idle: past the pool's idle timeout (30 s), nobody asking.
    await new Promise((resolve) => setTimeout(resolve, 35_000));
    const idle = await activity(admin, name);
    console.log(`connections idle (35 s later): ${String(total(idle))} (${described(idle)})`);
    const baseUrl = app.baseUrl;
    const paths = [
      '/api/v1/clusters',
      `/api/v1/clusters/${clusterId}/queues?page=1&pageSize=50`,
      '/api/v1/fleet',
      '/api/v1/audit?limit=50',
      `/api/v1/clusters/${clusterId}/events?limit=50`,
    ];
    let requests = 0;
    let failures = 0;
    const statuses = new Map<number, number>();
    const stopAt = Date.now() + LOAD_SECONDS * 1000;
    let loadPeak = 0;
    const clients = Array.from({ length: LOAD_CLIENTS }, async (_, client) => {
      for (let call = client; Date.now() < stopAt; call++) {
        const response = await fetch(`${baseUrl}${paths[call % paths.length] ?? '/api/v1/clusters'}`, { headers });
        await response.arrayBuffer();
        requests++;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) failures++;
      }
    });
    const loadWatch = (async () => {
      while (Date.now() < stopAt) {
        loadPeak = Math.max(loadPeak, total(await activity(admin, name)));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await Promise.all([...clients, loadWatch]);
    watching.on = false;
    await watch;
    const statusText = [...statuses.entries()].map(([status, n]) => `${String(status)}×${String(n)}`).join(' ');
    console.log(
      `connections under load (${String(LOAD_CLIENTS)} clients back to back for ${String(LOAD_SECONDS)} s, ${String(requests)} requests, ${statusText}): ` +
        `at most ${String(loadPeak)} at once; over the whole run at most ${String(peakTotal)}, the most of each: ${described(peak)}`,
    );
    // The pools (flotilla-web, flotilla-worker) may each reach FLOTILLA_DB_POOL_SIZE; besides them a process keeps
    // its bus (LISTEN) and its lock sessions (flotilla-locks-*). This bench's own connections have no such name.
    const keeps = (application: string) => /-bus$|^flotilla-locks-/.test(application);
    const keptOnes = new Map([...peak].filter(([application]) => keeps(application)));
    const kept = [...keptOnes.values()].reduce((sum, n) => sum + n, 0);
    const bound = 2 * POOL_SIZE + kept;
    // docs/several-instances.md's bound, in words and as a number: change both with the docs.
    const formulaText = '2 × (pool + 2) + 1';
    const formula = 2 * (POOL_SIZE + 2) + 1;
    console.log(
      `both pools full: 2 × ${String(POOL_SIZE)} + ${String(kept)} kept (${described(keptOnes)}) = ${String(bound)}; docs/several-instances.md's formula ${formulaText} = ${String(formula)}`,
    );
    reportFigure({
      id: 'pg-sizing.connections',
      figure: `pg_stat_activity rows of one instance as npm start runs it (web + worker, pool ${String(POOL_SIZE)}, one cluster owned): idle, the most seen (start, idle, ${String(LOAD_CLIENTS)} API clients back to back for ${String(LOAD_SECONDS)} s), and with both pools full (2 × pool + the connections a process keeps), against docs/several-instances.md's ${formulaText}`,
      target: `≤ ${String(formula)}`,
      seen: `idle ${String(total(idle))}; most seen ${String(peakTotal)} (under load ${String(loadPeak)}); both pools full ${String(bound)} = 2 × ${String(POOL_SIZE)} + ${String(kept)} kept (${described(keptOnes)}); ${String(failures)} answers ≥ 500; load ${load()}`,
      holds: bound <= formula,
    });
  } finally {
    await app?.destroy();
    await admin.end();
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------------------------

const parts = { storage, throughput, connections } as const;
// The parts named on the command line, or in PG_SIZING_PARTS (comma-separated: `npm run bench` passes no arguments).
const wanted = [...process.argv.slice(2), ...(process.env.PG_SIZING_PARTS ?? '').split(',')].filter(
  (name): name is keyof typeof parts => name in parts,
);
console.log(
  `default cadence: tier A every ${String(DEFAULTS.A / 1000)} s, tier B (first ${String(DEFAULTS.firstPage)} queues per node) every ${String(DEFAULTS.B / 1000)} s, ` +
    `tier C every ${String(DEFAULTS.C / 1000)} s; metric retention ${String(DEFAULTS.retention / DAY_MS)} d; load ${load()}`,
);
for (const part of wanted.length > 0 ? wanted : (Object.keys(parts) as (keyof typeof parts)[])) await parts[part]();
