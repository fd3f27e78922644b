// The persist step keeps per-queue totals (queue_total) on a real PostgreSQL, the way the scraper calls it: a
// listing upserted and its totals refreshed in one transaction. Rates come from consecutive listings and are never
// negative after a counter reset; two nodes persisted at the same moment both count; a queue gone from every node
// leaves; a change of which member serves recounts; internal queues are marked, and dead-letter ones by the
// addresses the brokers' settings name (not by their names); the grid filters and sorts on all of it. The minutes
// the persist step rolls up keep each counter's rise (a reset counts from zero) exactly as a rebuild from the samples.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode } from '@test/queue-rows.ts';
import { makePartitionsAhead } from './partition-maintenance.ts';
import { readQueueGrid, type QueueGridQuery } from '../read/queue-grid.ts';
import { keysOf, removeUnlisted, sampleNodeTotals, upsertQueueRows } from './queue-persist.ts';
import type { QueueRow } from './queue-rows.ts';
import { refreshQueueTotals } from './queue-totals.ts';
import { recordDeadLetterRead } from './dead-letter-settings.ts';
import { makeDayPartitions, rollUpSamples } from './metric-rollup.ts';
import { captureLogLines } from '@test/log-lines.ts';

let database: TestDatabase;
let db: Database;
const clusterId = randomUUID();
const nodes = { primary: '', backup: '', second: '' };

const row = (name: string, values: Partial<QueueRow> = {}): QueueRow => ({
  address: name,
  name,
  routingType: 'ANYCAST',
  messageCount: 0,
  consumerCount: 0,
  deliveringCount: 0,
  messagesAdded: 0,
  messagesAcked: 0,
  messagesExpired: 0,
  messagesKilled: 0,
  paused: false,
  durable: true,
  temporary: false,
  internal: false,
  ...values,
});

/** What the scraper does with one listing: upsert, remove what a complete one lacks, refresh the totals. */
async function persist(nodeId: string, listedAt: Date, rows: QueueRow[], complete = false): Promise<void> {
  await inTransaction(db.pool, async (client) => {
    await upsertQueueRows(client, { clusterId, nodeId, tier: complete ? 'C' : 'B', listedAt }, rows);
    if (complete) await removeUnlisted(client, nodeId, listedAt);
    await refreshQueueTotals(client, clusterId, complete ? undefined : keysOf(rows));
    await sampleNodeTotals(client, { clusterId, nodeId, tier: complete ? 'C' : 'B', listedAt });
  });
}

const grid = (query: Partial<QueueGridQuery> = {}) =>
  readQueueGrid(db, {
    clusterId,
    sort: { field: 'queueName', direction: 'asc' },
    page: 1,
    pageSize: 100,
    ...query,
  });

const rowOf = async (name: string, query: Partial<QueueGridQuery> = {}) =>
  (await grid({ queueName: name, ...query })).items[0];

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 6, applicationName: 'queue-totals-test' });
  await makePartitionsAhead((sql) => db.pool.query(sql));
  await insertClusterRow(db.prisma, { id: clusterId, name: 'totals' });
  const fresh = new Date();
  nodes.primary = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'p1',
    serving: true,
    sweptAt: fresh,
  });
  nodes.backup = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'b1',
    role: 'BACKUP',
    serving: false,
    sweptAt: fresh,
  });
  nodes.second = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n2',
    brokerName: 'p2',
    serving: true,
    sweptAt: fresh,
  });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('queue totals kept by the persist step', () => {
  it('derives smoothed rates from consecutive listings, never negative after a counter reset', async () => {
    const t0 = new Date(Date.now() - 60_000);
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1_000);
    await persist(nodes.primary, at(0), [row('rates', { messagesAdded: 100, messagesAcked: 50, messageCount: 50 })]);
    expect(await rowOf('rates')).toMatchObject({ inRate: null, outRate: null, messagesAdded: 100 });

    await persist(nodes.primary, at(10), [row('rates', { messagesAdded: 160, messagesAcked: 70, messageCount: 90 })]);
    const first = await rowOf('rates');
    expect(first?.inRate).toBeCloseTo(6, 5); // the first rate is the instant one: 60 in 10 s
    expect(first?.outRate).toBeCloseTo(2, 5);
    expect(first?.depthRate).toBeCloseTo(4, 5);
    expect(first?.growing).toBe(true);

    // The broker restarted: its counters start again from zero.
    await persist(nodes.primary, at(20), [row('rates', { messagesAdded: 10, messagesAcked: 0, messageCount: 90 })]);
    const afterReset = await rowOf('rates');
    expect(afterReset?.inRate).toBeGreaterThanOrEqual(0);
    expect(afterReset?.outRate).toBeGreaterThanOrEqual(0);
    // 6/s smoothed with 1/s (10 counted from zero over 10 s): between the two.
    expect(afterReset?.inRate).toBeLessThan(6);
    expect(afterReset?.inRate).toBeGreaterThan(1);
  });

  it('counts both of two nodes persisted at the same moment', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `both.${index}`);
    for (let round = 1; round <= 5; round++) {
      const listedAt = new Date(Date.now() + round);
      await Promise.all([
        persist(
          nodes.primary,
          listedAt,
          names.map((name) => row(name, { messageCount: round })),
        ),
        persist(
          nodes.second,
          listedAt,
          names.map((name) => row(name, { messageCount: 10 * round })),
        ),
      ]);
      const { items } = await grid({ q: 'both.' });
      expect(items.map((item) => item.messageCount)).toEqual(names.map(() => 11 * round));
    }
  });

  it('counts the serving member of a pair once, and recounts when the backup takes over', async () => {
    const listedAt = new Date();
    await persist(nodes.primary, listedAt, [row('paired', { messageCount: 7 })]);
    await persist(nodes.backup, listedAt, [row('paired', { messageCount: 7 })]);
    expect(await rowOf('paired')).toMatchObject({ messageCount: 7, nodesPresent: 1, nodesTotal: 2 });

    await persist(nodes.backup, new Date(listedAt.getTime() + 1), [row('paired', { messageCount: 9 })]);
    expect((await rowOf('paired'))?.messageCount).toBe(7); // still the primary's cell
    await db.query('UPDATE cluster_node SET serving = (id = $1) WHERE id IN ($1, $2)', [nodes.backup, nodes.primary]);
    await inTransaction(db.pool, (client) => refreshQueueTotals(client, clusterId));
    expect(await rowOf('paired')).toMatchObject({ messageCount: 9, nodesPresent: 1 });
    await db.query('UPDATE cluster_node SET serving = (id = $1) WHERE id IN ($1, $2)', [nodes.primary, nodes.backup]);
    await inTransaction(db.pool, (client) => refreshQueueTotals(client, clusterId));
  });

  it('drops a queue gone from every node after a complete listing, and keeps one another node still lists', async () => {
    const listedAt = new Date(Date.now() + 10_000);
    await persist(nodes.second, listedAt, [row('leaving'), row('staying')]);
    await persist(nodes.primary, listedAt, [row('staying')]);
    const later = new Date(listedAt.getTime() + 1_000);
    await persist(nodes.second, later, [row('other')], true);
    expect(await rowOf('leaving')).toBeUndefined();
    expect(await rowOf('staying')).toMatchObject({ nodesPresent: 1 });
  });

  it('marks internal and dead-letter queues, and filters and sorts on totals and rates', async () => {
    const listedAt = new Date(Date.now() + 20_000);
    // The brokers' settings name DLQ as a dead-letter address and expired.orders as an expiry address.
    await inTransaction(db.pool, (client) =>
      recordDeadLetterRead(
        client,
        clusterId,
        { ok: true, asked: 4, addresses: { deadLetter: ['DLQ'], expiry: ['expired.orders'] } },
        listedAt,
      ),
    );
    await persist(nodes.second, listedAt, [
      row('$.artemis.internal.sf.cluster.node1', { address: '$.artemis.internal.sf.cluster.node1', internal: true }),
      row('DLQ', { messageCount: 3 }),
      row('EXP.orders', { address: 'expired.orders', messageCount: 1 }),
      // Named like Artemis's auto-created dead-letter queues, on an address no setting names: not one.
      row('DLQ.decoy', { messageCount: 2 }),
      row('busy', { messageCount: 40, consumerCount: 2, paused: true }),
    ]);
    const names = async (query: Partial<QueueGridQuery>) =>
      (await grid({ ...query, pageSize: 500 })).items.map((item) => item.queueName);

    expect(await names({})).not.toContain('$.artemis.internal.sf.cluster.node1');
    expect(await names({ includeInternal: true })).toContain('$.artemis.internal.sf.cluster.node1');
    expect(await rowOf('$.artemis.internal.sf.cluster.node1')).toMatchObject({ internal: true });
    expect(await names({ deadLetter: true })).toEqual(['DLQ', 'EXP.orders']);
    expect(await rowOf('EXP.orders')).toMatchObject({ deadLetter: true, deadLetterKind: 'expiry' });
    expect(await rowOf('DLQ.decoy')).toMatchObject({ deadLetter: false, deadLetterKind: null });
    expect(await names({ consumers: 'with' })).toEqual(['busy']);
    expect(await names({ paused: true })).toEqual(['busy']);
    expect((await names({ consumers: 'without' })).length).toBeGreaterThan(5);
    expect(await names({ growing: true })).toEqual(['rates']);
    expect(await names({ stale: true })).toEqual([]);
    // Deepest first, then by in-rate: the queue with a rate leads (no rate sorts last).
    expect((await names({ sort: { field: 'messageCount', direction: 'desc' } }))[0]).toBe('rates');
    expect((await names({ sort: { field: 'inRate', direction: 'desc' } }))[0]).toBe('rates');
    const byTotal = await grid({ deadLetter: true, pageSize: 1 });
    expect(byTotal).toMatchObject({ total: 2 });
  });

  it('samples each node’s totals over its non-internal queues at every listing', async () => {
    const [latest] = await db.query<{ queues: number; message_count: string; consumer_count: string }>(
      'SELECT queues, message_count, consumer_count FROM node_metric_sample WHERE node_id = $1 ORDER BY ts DESC LIMIT 1',
      [nodes.second],
    );
    const [expected] = await db.query<{ queues: number; depth: string; consumers: string }>(
      `SELECT count(*)::int AS queues, sum(message_count) AS depth, sum(consumer_count) AS consumers
         FROM queue_snapshot WHERE node_id = $1 AND internal IS NOT TRUE`,
      [nodes.second],
    );
    expect(latest).toEqual({
      queues: expected?.queues,
      message_count: expected?.depth,
      consumer_count: expected?.consumers,
    });
    // The internal store-and-forward queue is left out.
    const [all] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM queue_snapshot WHERE node_id = $1', [
      nodes.second,
    ]);
    expect(latest?.queues).toBe((all?.n ?? 0) - 1);
  });

  it('marks a row stale when a counted cell’s node is stale, and filters on it', async () => {
    await db.query(`UPDATE scrape_sweep SET last_completed_at = now() - interval '1 hour' WHERE node_id = $1`, [
      nodes.second,
    ]);
    expect(await rowOf('busy')).toMatchObject({ stale: true, messageCount: 40 });
    expect(await rowOf('paired')).toMatchObject({ stale: false });
    const stale = (await grid({ stale: true, pageSize: 500 })).items.map((item) => item.queueName);
    expect(stale).toContain('busy');
    expect(stale).not.toContain('paired');
  });
});

describe('the per-minute rollup kept by the persist step', () => {
  it('keeps each minute’s counter rises and their span exactly as a rebuild from the samples, across a reset', async () => {
    const name = 'rollup.rises';
    // A fixed day whose partitions this test makes itself: the test does not depend on the day it runs.
    const start = Date.parse('2026-11-26T10:00:05Z');
    await makeDayPartitions((sql) => db.pool.query(sql), [new Date(start)]);
    // Every 20 s for 3 minutes; the broker restarts after the fifth listing (its counters start again).
    const listings = Array.from({ length: 9 }, (_, index) => {
      const restarted = index >= 5;
      return {
        at: new Date(start + index * 20_000),
        added: restarted ? (index - 5) * 7 : 100 + index * 10,
        acked: restarted ? (index - 5) * 3 : 50 + index * 4,
      };
    });
    for (const listing of listings) {
      await persist(nodes.second, listing.at, [
        row(name, { messagesAdded: listing.added, messagesAcked: listing.acked, messageCount: 5 }),
      ]);
    }
    const read = () =>
      db.query<{ minute: Date; added_increase: string; acked_increase: string; span_start: Date; samples: number }>(
        `SELECT mm.minute, mm.added_increase::text, mm.acked_increase::text, mm.span_start, mm.samples
           FROM metric_minute mm JOIN queue_snapshot s ON s.id = mm.queue_id
          WHERE s.node_id = $1 AND s.queue_name = $2 ORDER BY mm.minute`,
        [nodes.second, name],
      );
    const persisted = await read();
    // Rises: 10 a listing before the restart, the new count at the restart (0), then 7 a listing; acks 4, 0, 3.
    expect(persisted.map((minute) => Number(minute.added_increase))).toEqual([20, 20, 21]);
    expect(persisted.map((minute) => Number(minute.acked_increase))).toEqual([8, 8, 9]);
    expect(persisted[1]?.span_start.toISOString()).toBe('2026-11-26T10:00:45.000Z');
    const [cell] = await db.query<{ id: string }>(
      'SELECT id::text FROM queue_snapshot WHERE node_id = $1 AND queue_name = $2',
      [nodes.second, name],
    );
    await rollUpSamples((sql, params) => db.pool.query(sql, params), [cell?.id ?? '']);
    expect(await read()).toEqual(persisted);
  });
});

describe('a listing dated before every metric partition', () => {
  it('keeps its queue rows and refuses only its samples, with one log line, without failing the persist step', async () => {
    const longAgo = new Date(Date.UTC(2001, 0, 1, 12));
    const logs = captureLogLines();
    try {
      await persist(nodes.second, longAgo, [row('late.listing', { messageCount: 3 })]);
    } finally {
      logs.restore();
    }
    expect(await rowOf('late.listing')).toMatchObject({ messageCount: 3 });
    const [samples] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM metric_sample ms JOIN queue_snapshot s ON s.id = ms.queue_id
        WHERE s.queue_name = 'late.listing'`,
    );
    expect(samples?.n).toBe(0);
    expect(logs.lines()).toEqual([
      expect.objectContaining({
        level: 'warn',
        module: 'scrape',
        listedAt: '2001-01-01T12:00:00.000Z',
        msg: expect.stringContaining('samples refused: no metric partition') as unknown,
      }),
    ]);
  });
});
