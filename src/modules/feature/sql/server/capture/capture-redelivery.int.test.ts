// A redelivered capture copy on a real PostgreSQL (issue 34: exactly once across a kill -9 of the draining worker).
// A drainer killed between the commit of a copy's row and its acknowledgement leaves the copy on the capture queue;
// the next drainer receives the same copy again (the broker's annotations as they were, a new receive time, a higher
// delivery count). Here the index writer is handed such a copy the way a redelivery hands it over — the first
// delivery, then the same message again, alone or in one batch, and across midnight — and the index holds one row of
// it. Copies that only look alike (the same message id and send time, another original on the broker) stay apart,
// and a sampled message (no broker id to tell a redelivery by) is kept as often as it comes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import type { NativeMessage } from '@/modules/platform/broker/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { IndexWriter } from '../index/index-writer.ts';
import { createPartitionSql, partitionFor } from '../index/partitions.ts';
import type { LiveTap } from './capture-reconciler.ts';
import { capturedMessageOf } from './captured-message.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 5).toString('base64');

const DAY_MS = 86_400_000;
let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;
const clusterId = randomUUID();

const tap: LiveTap = {
  clusterId,
  subscriptionId: randomUUID(),
  address: 'orders.redelivered',
  queue: 'flotilla.capture.d00000000.orders.redelivered.00000000.n1',
  nodeId: randomUUID(),
  nodeName: 'node-a',
  native: () => {
    throw new Error('not drained here');
  },
  installed: false,
  expiryDelayMs: 3_600_000,
};

/** A copy as the capture consumer receives it: `original` is the broker's id of the original on the node. */
function copy(messageId: string, original: number, deliveryCount = 0, sentAt = Date.now() - 5_000): NativeMessage {
  return {
    channel: 'native',
    header: { durable: true, priority: 4, firstAcquirer: deliveryCount === 0, deliveryCount },
    properties: {
      messageId: { type: 'string', value: messageId },
      creationTime: sentAt,
      absoluteExpiryTime: sentAt + 100 + tap.expiryDelayMs,
    },
    applicationProperties: { tenant: { type: 'string', value: 'acme' } },
    messageAnnotations: {
      'x-opt-ORIG-MESSAGE-ID': { type: 'long', value: original },
      'x-opt-ORIG-ADDRESS': { type: 'string', value: tap.address },
    },
    deliveryAnnotations: {},
    footer: {},
    body: {
      base64: Buffer.from(`order ${messageId}`).toString('base64'),
      encoding: 'text',
      section: 'amqp-value',
      sizeBytes: 6 + messageId.length,
    },
  };
}

/** What the consumer hands the writer for a delivery received at `receivedAt`. */
const delivered = (message: NativeMessage, receivedAt = new Date()) => capturedMessageOf(tap, message, receivedAt);

function newWriter(): IndexWriter {
  return new IndexWriter({
    pool: db.pool,
    capacity: () => 1_000,
    notify: () => Promise.resolve(),
    governance: { db, bus },
  });
}

async function rowsOf(messageId: string): Promise<number> {
  const [row] = await db.query<{ rows: string }>(
    'SELECT count(*) AS rows FROM message_index WHERE cluster_id = $1 AND message_id = $2',
    [clusterId, messageId],
  );
  return Number(row?.rows);
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'capture-redelivery-test' });
  bus = createDatabaseBus(database.url, db.pool, 'capture-redelivery-bus');
  await bus.ready();
  await insertClusterRow(db.prisma, { id: clusterId, name: 'capture-redelivery' });
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

describe('the index writer handed a redelivered capture copy', () => {
  it('keeps one row when the next drainer hands over a copy whose row was committed before the kill', async () => {
    const first = copy('ID:redelivered-1', 9_001);
    await newWriter().accept([delivered(first)]);
    // The killed drainer's writer is gone; the next worker's writer receives the same copy again.
    const next = newWriter();
    await next.accept([delivered(copy('ID:redelivered-1', 9_001, 1, first.properties.creationTime), new Date())]);
    expect(await rowsOf('ID:redelivered-1')).toBe(1);
    expect(next.redeliveriesSkipped).toBe(1);
  });

  it('keeps one row when the copy and its redelivery reach the writer in one batch', async () => {
    const first = copy('ID:redelivered-2', 9_002);
    const writer = newWriter();
    await writer.accept([
      delivered(first),
      delivered(copy('ID:redelivered-2', 9_002, 1, first.properties.creationTime)),
    ]);
    expect(await rowsOf('ID:redelivered-2')).toBe(1);
    expect(writer.redeliveriesSkipped).toBe(1);
  });

  it('keeps one row when the first delivery was indexed yesterday, before midnight', async () => {
    const yesterday = partitionFor(new Date(Date.now() - DAY_MS));
    await db.pool.query(createPartitionSql(yesterday));
    const first = copy('ID:redelivered-3', 9_003);
    await newWriter().accept([delivered(first)]);
    // As if it had been committed at 23:59:59 yesterday: the row moves to yesterday's partition.
    await db.pool.query(`UPDATE message_index SET indexed_at = $2 WHERE cluster_id = $1 AND message_id = $3`, [
      clusterId,
      new Date(yesterday.to.getTime() - 1_000),
      'ID:redelivered-3',
    ]);
    const next = newWriter();
    await next.accept([delivered(copy('ID:redelivered-3', 9_003, 1, first.properties.creationTime))]);
    expect(await rowsOf('ID:redelivered-3')).toBe(1);
    expect(next.redeliveriesSkipped).toBe(1);
  });

  it('keeps copies of different originals apart, however alike they look', async () => {
    const sentAt = Date.now() - 2_000;
    const writer = newWriter();
    // A sender that reuses its message ids (or sends none): two originals, one id, one send time.
    await writer.accept([delivered(copy('ID:reused', 9_101, 0, sentAt))]);
    await writer.accept([delivered(copy('ID:reused', 9_102, 0, sentAt))]);
    // The same broker id on another node of the cluster is another original.
    const otherNode: LiveTap = { ...tap, nodeId: randomUUID(), nodeName: 'node-b' };
    await writer.accept([capturedMessageOf(otherNode, copy('ID:reused', 9_101, 0, sentAt), new Date())]);
    // A node whose journal was wiped starts its ids again: the same id, another send time.
    await writer.accept([delivered(copy('ID:reused', 9_101, 0, sentAt + 60_000))]);
    expect(await rowsOf('ID:reused')).toBe(4);
    expect(writer.redeliveriesSkipped).toBe(0);
  });

  it('keeps a copy without the broker’s id and a sampled message as often as they come', async () => {
    const bare = copy('ID:no-broker-id', 0);
    const withoutId: NativeMessage = { ...bare, messageAnnotations: {} };
    const writer = newWriter();
    await writer.accept([delivered(withoutId), delivered(withoutId)]);
    const sampled = { ...delivered(copy('ID:sampled', 9_201)), origin: 'sample' as const, captureKey: null };
    await writer.accept([sampled, sampled]);
    expect(await rowsOf('ID:no-broker-id')).toBe(2);
    expect(await rowsOf('ID:sampled')).toBe(2);
    expect(writer.redeliveriesSkipped).toBe(0);
  });
});
