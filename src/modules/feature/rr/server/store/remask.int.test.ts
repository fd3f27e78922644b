// rr_event under a new content policy, on a real PostgreSQL: correlations that keep content (a timed-out request's
// ids and properties) are brought to the new version from their sealed originals, the remask report counts down to
// zero, completed pairs (no content) are never touched, and a row whose seal is not its own keeps nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import type { Correlation } from '../correlator/rr-types.ts';
import { rrEventStore, remaskBatch } from './remask.ts';
import { RrWriter } from './rr-writer.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');

let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;
const clusterId = randomUUID();

function correlation(key: string, state: Correlation['state'], tenant: string): Correlation {
  const now = Date.now();
  return {
    key,
    address: 'orders.requests',
    replyAddress: 'orders.replies',
    pattern: 'shared-reply',
    state,
    correlationId: key,
    messageId: `m-${key}`,
    nodeId: randomUUID(),
    feed: 'capture',
    requestAt: now - 5_000,
    replyAt: state === 'COMPLETED' ? now - 4_900 : null,
    latencyMs: state === 'COMPLETED' ? 100 : null,
    clock: 'message',
    deadlineAt: now - 1_000,
    deadlineSource: 'expectation',
    stateAt: now,
    headers: { tenant },
    brokerMessageId: null,
    note: null,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'rr-remask-test' });
  bus = createDatabaseBus(database.url, db.pool, 'rr-remask-bus');
  await bus.ready();
  await insertClusterRow(db.prisma, { id: clusterId });
  const writer = new RrWriter({ pool: db.pool, governance: { db, bus }, publishSignal: () => Promise.resolve() });
  writer.offer(clusterId, [
    correlation('a', 'TIMED_OUT', 'acme'),
    correlation('b', 'RESPONDER_DROPPED', 'globex'),
    correlation('c', 'ORPHANED', 'initech'),
    correlation('d', 'COMPLETED', 'hooli'),
  ]);
  await writer.flush();
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

describe('remasking stored correlations', () => {
  it('brings every row that keeps content to a new policy in batches, from its own seal only', async () => {
    const before = await db.query<{ state: string; headers: unknown; sealed_cipher: string | null }>(
      `SELECT state, headers, sealed_cipher FROM rr_event ORDER BY state`,
    );
    // A completed pair keeps no content; the others keep the request's properties (in force: tenant is no secret).
    expect(before.find((row) => row.state === 'COMPLETED')).toMatchObject({ headers: null, sealed_cipher: null });
    expect(before.find((row) => row.state === 'TIMED_OUT')?.headers).toEqual({ tenant: 'acme' });
    await db.query(
      `UPDATE rr_event SET sealed_cipher = first.sealed_cipher, sealed_key_id = first.sealed_key_id
         FROM (SELECT sealed_cipher, sealed_key_id FROM rr_event WHERE state = 'TIMED_OUT') AS first
        WHERE state = 'ORPHANED'`,
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
    expect(await rrEventStore.remaining(db, 1)).toBe(3);
    expect(await remaskBatch({ db, bus }, 2)).toBe(2);
    expect(await rrEventStore.remaining(db, 1)).toBe(1);
    expect(await remaskBatch({ db, bus }, 2)).toBe(1);
    expect(await rrEventStore.remaining(db, 1)).toBe(0);
    const after = await db.query<{
      state: string;
      headers: Record<string, unknown> | null;
      policy_version: number;
      correlation_id: string | null;
      redactions: unknown;
    }>(`SELECT state, headers, policy_version, correlation_id, redactions FROM rr_event ORDER BY state`);
    expect(JSON.stringify(after.map((row) => row.headers))).not.toMatch(/acme|globex|initech/);
    expect(after.find((row) => row.state === 'TIMED_OUT')).toMatchObject({ policy_version: 1, correlation_id: 'a' });
    expect(after.find((row) => row.state === 'TIMED_OUT')?.headers).toHaveProperty('tenant');
    const copied = after.find((row) => row.state === 'ORPHANED');
    expect(copied).toMatchObject({ headers: null, correlation_id: null, policy_version: 1 });
    expect(JSON.stringify(copied?.redactions)).toContain('does-not-open');
    expect(after.find((row) => row.state === 'COMPLETED')).toMatchObject({ headers: null, policy_version: 0 });
  });
});
