// Storing an evaluation on a real PostgreSQL writes only what changed (ADR 37): an evaluation with the same verdicts
// and figures leaves every queue_verdict row as it was (same tuple, same xmin, not even locked, no row counted
// inserted, updated or deleted), a changed one writes just the changed, new and gone queues, and the readers still
// say when the cluster was last judged and show the last figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import type { Verdict } from '@/base/consumer-verdicts.ts';
import type { QueueHealth } from './consumer-health.ts';
import { storedVerdictsOf, storeVerdicts, verdictCountsOf, worstQueuesOf } from './verdict-store.ts';

let database: TestDatabase;
let db: Database;
let clusterId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'verdict-store-test' });
  clusterId = await insertClusterRow(db.prisma);
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

function queue(name: string, verdict: Verdict, figures: { depth?: number; inRate?: number | null } = {}): QueueHealth {
  const depth = figures.depth ?? 0;
  return {
    address: name,
    queueName: name,
    routingType: 'ANYCAST',
    verdict,
    evidence: {
      windowMs: 300_000,
      samples: 5,
      depth,
      depthAtStart: depth,
      depthAtEnd: depth,
      inRate: figures.inRate === undefined ? 0 : figures.inRate,
      outRate: 0,
      delivering: 0,
      consumers: 1,
      paused: false,
      stale: false,
      slowConsumer: null,
    },
    advice: '',
  };
}

/** Each row's physical identity: its tuple, the transaction that wrote it and whether any transaction locked it. */
async function tuples(): Promise<Map<string, string>> {
  const rows = await db.query<{ queue_name: string; tuple: string }>(
    `SELECT queue_name, ctid::text || ' ' || xmin::text || ' ' || xmax::text AS tuple
       FROM queue_verdict WHERE cluster_id = $1`,
    [clusterId],
  );
  return new Map(rows.map((row) => [row.queue_name, row.tuple]));
}

/** Rows inserted, updated and deleted in queue_verdict so far, as the statistics count them. */
async function writes(): Promise<{ ins: number; upd: number; del: number }> {
  // Counts reach the shared statistics when a backend flushes them; a fresh connection of the pool may not have.
  for (const client of await Promise.all([db.pool.connect(), db.pool.connect()])) {
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('SELECT 1');
    client.release();
  }
  await db.query('SELECT pg_stat_clear_snapshot()');
  const [row] = await db.query<{ ins: string; upd: string; del: string }>(
    `SELECT n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del FROM pg_stat_user_tables WHERE relname = 'queue_verdict'`,
  );
  return { ins: Number(row?.ins), upd: Number(row?.upd), del: Number(row?.del) };
}

const first = new Date('2026-12-06T10:00:00Z');
const second = new Date('2026-12-06T10:01:00Z');
const third = new Date('2026-12-06T10:02:00Z');
const idle = Array.from({ length: 50 }, (_, index) => queue(`idle.${String(index)}`, 'HEALTHY'));

describe('storeVerdicts', () => {
  it('writes nothing to queue_verdict when an evaluation finds the same verdicts and figures', async () => {
    await storeVerdicts(db, clusterId, [...idle, queue('busy', 'DRAINING', { depth: 7, inRate: 3.5 })], first);
    const before = await tuples();
    const counted = await writes();
    expect(before.size).toBe(51);

    await storeVerdicts(db, clusterId, [...idle, queue('busy', 'DRAINING', { depth: 7, inRate: 3.5 })], second);

    expect(await tuples()).toEqual(before);
    expect(await writes()).toEqual(counted);
    // The cluster was still judged at the second evaluation, and says so.
    const counts = (await verdictCountsOf(db, [clusterId])).get(clusterId);
    expect(counts?.evaluatedAt).toBe(second.toISOString());
    expect(counts?.counts.HEALTHY).toBe(50);
    const worst = await worstQueuesOf(db, [clusterId], { verdicts: ['DRAINING'], page: 1, pageSize: 10 });
    expect(worst.items.map((item) => [item.queueName, item.evaluatedAt])).toEqual([['busy', second.toISOString()]]);
  });

  it('writes just the queues whose verdict or figures changed, the new ones and the gone ones', async () => {
    const before = await tuples();
    const counted = await writes();

    await storeVerdicts(
      db,
      clusterId,
      [
        ...idle.slice(1).map((item, index) => (index === 0 ? queue(item.queueName, 'NO_CONSUMERS') : item)),
        queue('busy', 'DRAINING', { depth: 9, inRate: null }),
        queue('new', 'STALLED', { depth: 3 }),
      ],
      third,
    );

    const after = await tuples();
    const rewritten = [...after.keys()].filter((name) => after.get(name) !== before.get(name)).sort();
    expect(rewritten).toEqual(['busy', 'idle.1', 'new']);
    expect(after.has('idle.0')).toBe(false);
    const now = await writes();
    expect({ ins: now.ins - counted.ins, upd: now.upd - counted.upd, del: now.del - counted.del }).toEqual({
      ins: 1,
      upd: 2,
      del: 1,
    });
    expect(await storedVerdictsOf(db, clusterId, { names: ['idle.1', 'idle.2', 'new'] })).toEqual(
      new Map([
        ['idle.1', 'NO_CONSUMERS'],
        ['idle.2', 'HEALTHY'],
        ['new', 'STALLED'],
      ]),
    );
    const worst = await worstQueuesOf(db, [clusterId], { verdicts: ['DRAINING', 'STALLED'], page: 1, pageSize: 10 });
    expect(worst.items.map((item) => [item.queueName, item.depth, item.inRate, item.evaluatedAt])).toEqual([
      ['new', 3, 0, third.toISOString()],
      ['busy', 9, null, third.toISOString()],
    ]);
    // A row's own time says since when it holds; the reader shows the cluster's last evaluation for every row.
    const [since] = await db.query<{ evaluated_at: Date }>(
      `SELECT evaluated_at FROM queue_verdict WHERE cluster_id = $1 AND queue_name = 'idle.2'`,
      [clusterId],
    );
    expect(since?.evaluated_at.toISOString()).toBe(first.toISOString());
    const idleNow = await worstQueuesOf(db, [clusterId], {
      verdicts: ['HEALTHY'],
      sort: 'evaluatedAt',
      page: 1,
      pageSize: 1,
    });
    expect(idleNow.items[0]?.evaluatedAt).toBe(third.toISOString());
    expect((await verdictCountsOf(db, [clusterId])).get(clusterId)?.evaluatedAt).toBe(third.toISOString());
  });

  it('keeps one evaluation row per cluster and empties the cluster when it has no queues left', async () => {
    await storeVerdicts(db, clusterId, [], new Date('2026-12-06T10:03:00Z'));
    expect(await tuples()).toEqual(new Map());
    const rows = await db.query<{ evaluated_at: Date }>(
      'SELECT evaluated_at FROM verdict_evaluation WHERE cluster_id = $1',
      [clusterId],
    );
    expect(rows.map((row) => row.evaluated_at.toISOString())).toEqual(['2026-12-06T10:03:00.000Z']);
  });
});
