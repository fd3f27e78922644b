// message_index under a new content policy, on a real PostgreSQL: the remask batches bring every row to the new
// version from its sealed original (the seal still bound to the row), the remask report counts down to zero, and a
// row whose seal is not its own keeps no content (fail closed).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { openStoredOriginal } from '@/modules/platform/governance/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { IndexWriter } from './index-writer.ts';
import { messageIndexStore, remaskIndexBatch } from './remask.ts';
import { sealBinding, type CapturedMessage } from './stored-message.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');

let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;
const clusterId = randomUUID();

function message(index: number, tenant: string): CapturedMessage {
  return {
    clusterId,
    nodeId: randomUUID(),
    node: 'node-a',
    origin: 'sample',
    subscriptionId: randomUUID(),
    id: `ID:${String(index)}`,
    address: 'orders.eu',
    queue: 'orders.eu',
    time: new Date(Date.now() - 1_000 + index).toISOString(),
    priority: 4,
    durable: true,
    expiration: null,
    correlation_id: null,
    reply_to: null,
    properties: { tenant },
    body: { customer: { tenant } },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'message-index-remask-test' });
  bus = createDatabaseBus(database.url, db.pool, 'message-index-remask-bus');
  await bus.ready();
  const writer = new IndexWriter({
    pool: db.pool,
    capacity: () => 100,
    notify: () => Promise.resolve(),
    governance: { db, bus },
  });
  await writer.accept([message(1, 'acme'), message(2, 'globex'), message(3, 'initech')]);
  await writer.stop();
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

describe('remasking the message index', () => {
  it('brings every row to a new policy in batches, and a seal copied to another row opens nothing there', async () => {
    expect(await messageIndexStore.remaining(db, 0)).toBe(0);
    await db.query(
      `UPDATE message_index SET sealed_cipher = first.sealed_cipher, sealed_key_id = first.sealed_key_id
         FROM (SELECT sealed_cipher, sealed_key_id FROM message_index WHERE message_id = 'ID:1') AS first
        WHERE message_id = 'ID:3'`,
    );
    const body = {
      rules: [{ id: 'tenant', target: 'property', match: 'tenant', dataClass: 'other-sensitive' }],
      detectors: ['card', 'iban', 'email', 'phone', 'bearer', 'jwt', 'private-key'],
      actions: {
        credential: 'drop',
        'payment-card': 'partial',
        'bank-account': 'partial',
        'personal-contact': 'mask',
        'other-sensitive': 'mask',
      },
    };
    await db.query(`INSERT INTO governance_policy (version, body, created_by) VALUES (1, $1, 'test')`, [
      JSON.stringify(body),
    ]);
    await bus.notify('flotilla_governance', '1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await messageIndexStore.remaining(db, 1)).toBe(3);

    expect(await remaskIndexBatch({ db, bus }, 2)).toBe(2);
    expect(await messageIndexStore.remaining(db, 1)).toBe(1);
    expect(await remaskIndexBatch({ db, bus }, 2)).toBe(1);
    expect(await messageIndexStore.remaining(db, 1)).toBe(0);

    const rows = await db.query<{
      message_id: string;
      properties: Record<string, unknown>;
      body: unknown;
      body_withheld: string | null;
      policy_version: number;
      row_id: string;
      sealed_cipher: string;
      sealed_key_id: string;
    }>(
      `SELECT message_id, properties, body, body_withheld, policy_version, row_id, sealed_cipher, sealed_key_id
         FROM message_index ORDER BY seq`,
    );
    expect(rows.every((row) => row.policy_version === 1)).toBe(true);
    expect(JSON.stringify(rows.map((row) => row.properties))).not.toMatch(/acme|globex|initech/);
    expect(rows[0]?.properties).toHaveProperty('tenant');
    expect(rows[2]).toMatchObject({ message_id: '(withheld)', properties: {}, body: null });
    expect(rows[2]?.body_withheld).toContain('does not open');
    const first = rows[0];
    expect(
      openStoredOriginal(
        { cipher: String(first?.sealed_cipher), keyId: String(first?.sealed_key_id) },
        sealBinding(String(first?.row_id)),
      ),
    ).toMatchObject({ properties: { tenant: 'acme' } });
  });
});
