// Dead-letter marks from the brokers' address settings, on a real PostgreSQL: nothing is marked (not even a queue
// named DLQ) until the settings are read, and the grid says they were not; a read marks the queues on the addresses
// it names, with their kind, and a queue listed later on such an address is marked at once; a read that fails (a
// broker that cannot be reached, or an address whose settings did not come back) changes no mark and the grid says
// so, with when the marks it keeps were read. The settings of many addresses go in POSTs of 500.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { ManagementClient, ManagementError } from '@/modules/platform/broker/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode } from '@test/queue-rows.ts';
import { describeFailure } from './node-fetch.ts';
import { makePartitionsAhead } from './partition-maintenance.ts';
import { readQueueGrid } from '../read/queue-grid.ts';
import { keysOf, upsertQueueRows } from './queue-persist.ts';
import type { QueueRow } from './queue-rows.ts';
import { refreshQueueTotals } from './queue-totals.ts';
import {
  queueAddressesOf,
  readDeadLetterAddresses,
  recordDeadLetterRead,
  type DeadLetterRead,
} from './dead-letter-settings.ts';

let database: TestDatabase;
let db: Database;
const clusterId = randomUUID();
let nodeId = '';

const row = (name: string, address = name): QueueRow => ({
  address,
  name,
  routingType: 'ANYCAST',
  messageCount: 1,
  consumerCount: 0,
  deliveringCount: 0,
  messagesAdded: 1,
  messagesAcked: 0,
  messagesExpired: 0,
  messagesKilled: 0,
  paused: false,
  durable: true,
  temporary: false,
  internal: false,
});

async function persist(rows: QueueRow[]): Promise<void> {
  await inTransaction(db.pool, async (client) => {
    await upsertQueueRows(client, { clusterId, nodeId, tier: 'B', listedAt: new Date() }, rows);
    await refreshQueueTotals(client, clusterId, keysOf(rows));
  });
}

const record = (read: DeadLetterRead, at = new Date()) =>
  inTransaction(db.pool, (client) => recordDeadLetterRead(client, clusterId, read, at));

const grid = () =>
  readQueueGrid(db, { clusterId, sort: { field: 'queueName', direction: 'asc' }, page: 1, pageSize: 100 });
const marked = async () =>
  (await grid()).items.filter((item) => item.deadLetter).map((item) => [item.queueName, item.deadLetterKind]);

/** A management client that answers getAddressSettingsAsJSON from a map, counting its POSTs. */
function settingsClient(settings: (address: string) => Record<string, unknown> | undefined) {
  const posts: number[] = [];
  const client = {
    nodeKey: 'fake',
    brokerObjectName: () => Promise.resolve('org.apache.activemq.artemis:broker="fake"'),
    call: (requests: ReadonlyArray<{ arguments: unknown[] }>) => {
      posts.push(requests.length);
      return Promise.resolve(
        requests.map((request) => {
          const values = settings(String(request.arguments[0]));
          return values
            ? { ok: true, value: JSON.stringify(values) }
            : { ok: false, error: new ManagementError('broker-error', 'no such setting', 'fake') };
        }),
      );
    },
  };
  return { client: client as unknown as ManagementClient, posts };
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'dead-letter-settings-test' });
  await makePartitionsAhead((sql) => db.pool.query(sql));
  await insertClusterRow(db.prisma, { id: clusterId, name: 'dead-letters' });
  nodeId = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'n1',
    serving: true,
    sweptAt: new Date(),
  });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('dead-letter marks from the address settings', () => {
  it('marks nothing, not even a queue named DLQ, before the settings are read, and the grid says so', async () => {
    await persist([row('orders'), row('DLQ'), row('DLQ.orders'), row('ExpiryQueue'), row('dead.orders', 'dead')]);
    expect(await marked()).toEqual([]);
    const { deadLetterSettings } = await grid();
    expect(deadLetterSettings).toMatchObject({ ok: false, readAt: null });
    expect(deadLetterSettings.error).toBe('the first read follows the first full sweep of the cluster');
  });

  it('reads deadLetterAddress (DLA on older brokers) and expiryAddress, in POSTs of 500 addresses', async () => {
    const addresses = Array.from({ length: 1_001 }, (_, index) => `a${String(index)}`);
    const { client, posts } = settingsClient((address) =>
      address === 'a0'
        ? { DLA: 'old.dla', expiryAddress: '' }
        : { deadLetterAddress: address === 'a1000' ? 'dead' : 'DLQ', expiryAddress: 'expired' },
    );
    expect(await readDeadLetterAddresses(client, addresses)).toEqual({
      deadLetter: ['DLQ', 'dead', 'old.dla'],
      expiry: ['expired'],
    });
    expect(posts).toEqual([500, 500, 1]);
    expect(await queueAddressesOf(db.pool, clusterId)).toEqual(['DLQ', 'DLQ.orders', 'ExpiryQueue', 'dead', 'orders']);
  });

  it('marks the queues on the addresses a read names, with their kind, and later ones at once', async () => {
    const readAt = new Date('2026-11-26T10:00:00.000Z');
    const change = await record(
      { ok: true, asked: 5, addresses: { deadLetter: ['dead'], expiry: ['ExpiryQueue'] } },
      readAt,
    );
    expect(change).toEqual({ marksChanged: 2, statusChanged: true });
    expect(await marked()).toEqual([
      ['ExpiryQueue', 'expiry'],
      ['dead.orders', 'dead-letter'],
    ]);
    expect((await grid()).deadLetterSettings).toEqual({ ok: true, readAt: readAt.toISOString(), error: null });
    // A queue the next listing finds on a dead-letter address is marked by the totals refresh itself.
    await persist([row('dead.payments', 'dead')]);
    expect(await marked()).toContainEqual(['dead.payments', 'dead-letter']);
    // The same read again changes nothing.
    expect(
      await record({ ok: true, asked: 6, addresses: { deadLetter: ['dead'], expiry: ['ExpiryQueue'] } }, readAt),
    ).toEqual({ marksChanged: 0, statusChanged: false });
  });

  it('keeps every mark when a read fails, and the grid says why and since when the marks are', async () => {
    const before = await marked();
    const unreachable = new ManagementClient({
      url: 'http://127.0.0.1:1/console/jolokia',
      user: 'nobody',
      password: 'nothing',
    });
    let error = '';
    try {
      await readDeadLetterAddresses(unreachable, ['orders']);
    } catch (failure) {
      error = `n1: ${describeFailure(failure)}`;
    } finally {
      unreachable.close();
    }
    expect(error).not.toBe('');
    expect(await record({ ok: false, asked: 6, error })).toEqual({ marksChanged: 0, statusChanged: true });
    expect(await marked()).toEqual(before);
    const { deadLetterSettings } = await grid();
    expect(deadLetterSettings).toEqual({ ok: false, readAt: '2026-11-26T10:00:00.000Z', error });

    // An address whose settings did not come back fails the whole read: nothing is half-read.
    const { client } = settingsClient((address) => (address === 'orders' ? undefined : { deadLetterAddress: 'x' }));
    await expect(readDeadLetterAddresses(client, ['dead', 'orders'])).rejects.toThrow(
      'the settings of 1 of 2 addresses could not be read',
    );
  });

  it('un-marks a queue whose address the settings no longer name', async () => {
    const change = await record({ ok: true, asked: 6, addresses: { deadLetter: [], expiry: ['ExpiryQueue'] } });
    expect(change).toEqual({ marksChanged: 2, statusChanged: true });
    expect(await marked()).toEqual([['ExpiryQueue', 'expiry']]);
  });
});
