// A scrape's write after its cluster was removed, on a real PostgreSQL: the refusal is told from any other failure by
// the constraint PostgreSQL names, so the scraper logs it as the race it is (info) and keeps logging real faults as
// errors (cluster-scraper.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertScrapedNode } from '@test/queue-rows.ts';
import { upsertQueueRows } from './queue-persist.ts';
import type { QueueRow } from './queue-rows.ts';
import { removedMeanwhile } from './removed-meanwhile.ts';

let database: TestDatabase;
let db: Database;

const orders: QueueRow = {
  address: 'orders',
  name: 'orders',
  routingType: 'ANYCAST',
  messageCount: 3,
  consumerCount: 0,
  deliveringCount: 0,
  messagesAdded: 3,
  messagesAcked: 0,
  messagesExpired: 0,
  messagesKilled: 0,
  paused: false,
  durable: true,
  temporary: false,
  internal: false,
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'removed-meanwhile-test' });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('a scrape write that lost the race with a removal', () => {
  it('names the cluster or node key PostgreSQL refused the rows by', async () => {
    const clusterId = await insertClusterRow(db.prisma, { name: 'removed-while-read' });
    const nodeId = await insertScrapedNode(db.prisma, {
      clusterId,
      brokerNodeId: 'g1',
      brokerName: 'gone-1',
      serving: true,
      sweptAt: new Date(),
    });
    await db.prisma.cluster.delete({ where: { id: clusterId } });

    const refused = await inTransaction(db.pool, (client) =>
      upsertQueueRows(client, { clusterId, nodeId, tier: 'B', listedAt: new Date() }, [orders]),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeDefined();
    expect(removedMeanwhile(refused)).toMatch(/^queue_snapshot_(cluster|node)_id_fkey$/);
  });

  it('is no such race for any other failure of a write', async () => {
    const notNull = await db.pool.query('INSERT INTO queue_snapshot (cluster_id) VALUES (NULL)').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((notNull as { code?: string }).code).toBe('23502');
    expect(removedMeanwhile(notNull)).toBeUndefined();
    expect(removedMeanwhile(new Error('connection terminated'))).toBeUndefined();
    expect(removedMeanwhile({ code: '23503', constraint: 'alert_rule_channel_id_fkey' })).toBeUndefined();
  });
});
