// Broker events as stored on a real PostgreSQL: the writer keeps each event's properties masked by the policy in
// force (its version and redactions beside them) and the original sealed in the vault, bound to the row; a read
// without clear access starts from the masked copy, a clear read from the original; a seal copied to another row
// opens nothing there (fail closed); after a policy change the remask batches bring every row to the new version,
// and the governance module's remask report counts down to zero.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import type { BrokerEvent } from '@/modules/platform/broker/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode } from '@test/queue-rows.ts';
import { EventWriter } from './event-writer.ts';
import { listEvents } from './events-read.ts';
import { listEventsInput } from './events.schema.ts';
import { governEvents } from './governed-events.ts';
import { brokerEventStore, remaskBatch } from './remask.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');

let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;
const clusterId = randomUUID();
let nodeId = '';
const CARD = '4111 1111 1111 1111';

function event(index: number, properties: Record<string, string>): BrokerEvent {
  return {
    kind: 'CONSUMER_CREATED',
    nodeKey: nodeId,
    clusterKey: clusterId,
    time: new Date(Date.now() - 1_000 + index).toISOString(),
    address: 'orders',
    queue: 'orders',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [name, { type: 'string' as const, value }]),
    ),
  };
}

const page = async () =>
  (await listEvents(db.pool, listEventsInput.parse({ clusterId, sort: 'seq', pageSize: 50 }))).items;

async function writeEvents(events: readonly BrokerEvent[]): Promise<void> {
  const writer = new EventWriter({
    pool: db.pool,
    owns: () => true,
    capacity: () => 1_000,
    publishSignal: () => Promise.resolve(),
    notify: () => Promise.resolve(),
    governance: { db, bus },
  });
  for (const one of events) writer.consume(one);
  await writer.stop();
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'stored-events-test' });
  bus = createDatabaseBus(database.url, db.pool, 'stored-events-bus');
  await bus.ready();
  await insertClusterRow(db.prisma, { id: clusterId, name: 'stored-events' });
  nodeId = await insertScrapedNode(db.prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'b1',
    serving: true,
    sweptAt: new Date(),
  });
  await writeEvents([event(1, { card: CARD, tenant: 'acme' }), event(2, { note: 'plain', tenant: 'globex' })]);
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

describe('stored broker events', () => {
  it('keeps the masked copy with its policy version, and the original only sealed', async () => {
    const rows = await db.query<{ properties: object; policy_version: number; sealed_cipher: string | null }>(
      'SELECT properties, policy_version, sealed_cipher FROM broker_event ORDER BY seq',
    );
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain('4111 1111 1111 1111');
    expect(rows.every((row) => row.policy_version === 0 && row.sealed_cipher !== null)).toBe(true);
    expect(rows[0]?.sealed_cipher).not.toContain('acme');
  });

  it('reads masked by default and in clear on request, from the original', async () => {
    const masked = await governEvents({ db, bus }, await page(), { clear: false });
    expect(masked.events[0]?.properties.card?.value).not.toBe(CARD);
    expect(masked.events[0]?.redactions?.map((redaction) => redaction.dataClass)).toContain('payment-card');
    const clear = await governEvents({ db, bus }, await page(), { clear: true });
    expect(clear.events[0]?.properties.card?.value).toBe(CARD);
    expect(clear.events[0]?.properties).not.toHaveProperty('storage');
    expect(clear.events[0]).not.toHaveProperty('storage');
  });

  it('answers one event by its position, the link the console opens its drawer from', async () => {
    const [, second] = await page();
    const seq = second?.seq ?? 0;
    // As a link carries it: a string in the query.
    const one = await listEvents(db.pool, listEventsInput.parse({ clusterId, seq: String(seq) }));
    expect(one.total).toBe(1);
    expect(one.items.map((row) => [row.seq, row.properties.tenant?.value])).toEqual([[seq, 'globex']]);
    expect(listEventsInput.safeParse({ clusterId, seq: 'x' }).success).toBe(false);
  });

  it('opens nothing when a seal is copied onto another row', async () => {
    await db.query(
      `UPDATE broker_event SET sealed_cipher = first.sealed_cipher, sealed_key_id = first.sealed_key_id
         FROM (SELECT sealed_cipher, sealed_key_id FROM broker_event ORDER BY seq LIMIT 1) AS first
        WHERE seq = (SELECT max(seq) FROM broker_event)`,
    );
    const clear = await governEvents({ db, bus }, await page(), { clear: true });
    expect(clear.events[1]?.properties).toEqual({});
    expect(clear.events[1]?.redactions?.[0]?.by).toBe('vault:does-not-open');
    expect(clear.events[0]?.properties.card?.value).toBe(CARD);
  });

  it('brings every stored row to a new policy in batches, and the remask report counts down to zero', async () => {
    await writeEvents([event(3, { tenant: 'initech' }), event(4, { tenant: 'umbrella' })]);
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
    expect(await brokerEventStore.remaining(db, 1)).toBe(4);

    // Before the rows are rewritten, a read already applies the new policy (from the originals).
    const now = await governEvents({ db, bus }, await page(), { clear: false });
    expect(now.policyVersion).toBe(1);
    expect(now.events.map((one) => one.properties.tenant?.value)).not.toContain('initech');

    expect(await remaskBatch({ db, bus }, 3)).toBe(3);
    expect(await brokerEventStore.remaining(db, 1)).toBe(1);
    expect(await remaskBatch({ db, bus }, 3)).toBe(1);
    expect(await brokerEventStore.remaining(db, 1)).toBe(0);
    const stored = await db.query<{ properties: Record<string, { value: string }>; policy_version: number }>(
      'SELECT properties, policy_version FROM broker_event ORDER BY seq',
    );
    expect(stored.every((row) => row.policy_version === 1)).toBe(true);
    expect(JSON.stringify(stored)).not.toMatch(/acme|globex|initech|umbrella/);
    // The row whose seal was not its own stays empty: nothing is guessed.
    expect(stored[1]?.properties).toEqual({});
    // Clear access still reaches the originals after the rewrite.
    const clear = await governEvents({ db, bus }, await page(), { clear: true });
    expect(clear.events.map((one) => one.properties.tenant?.value)).toEqual(['acme', undefined, 'initech', 'umbrella']);
  });

  it('governs a stored property not in its typed form as text, and never shows it as stored', async () => {
    // A row written outside Flotilla, as the stream fuzzing's first seeded rows were: bare values and shapes of their
    // own beside a typed property, unsealed, at the policy version in force.
    const [row] = await db.query<{ seq: string }>(
      `INSERT INTO broker_event (cluster_id, node_id, logical_node, kind, address, properties, broker_time,
                                 received_at, policy_version)
       VALUES ($1, $2, $3, 'CONSUMER_CREATED', 'orders', $4, now(), now(), 1) RETURNING seq`,
      [
        clusterId,
        nodeId,
        `node:${nodeId}`,
        JSON.stringify({
          note: `ref ${CARD}`,
          pan: 4111111111111111,
          nested: { card: CARD },
          untyped: { value: CARD },
          typed: { type: 'string', value: 'plain' },
        }),
      ],
    );
    const read = async (clear: boolean) => {
      const stored = await listEvents(db.pool, listEventsInput.parse({ clusterId, seq: row?.seq }));
      return (await governEvents({ db, bus }, stored.items, { clear })).events[0];
    };
    const masked = await read(false);
    expect(JSON.stringify(masked)).not.toContain('4111');
    expect(masked?.properties).toEqual({
      note: { type: 'string', value: 'ref •••• •••• •••• 1111' },
      pan: { type: 'string', value: '••••••••••••1111' },
      nested: { type: 'string', value: '{"card":"•••• •••• •••• 1111"}' },
      untyped: { type: 'string', value: '{"value":"•••• •••• •••• 1111"}' },
      typed: { type: 'string', value: 'plain' },
    });
    const cards = masked?.redactions?.filter((one) => one.dataClass === 'payment-card').map((one) => one.location);
    expect(cards?.sort()).toEqual(['property:nested', 'property:note', 'property:pan', 'property:untyped']);
    // A caller with clear access sees the text, as a string, marked sensitive.
    const clear = await read(true);
    expect(clear?.properties.note).toEqual({ type: 'string', value: `ref ${CARD}` });
    // The remask rewrites the row sealed, its properties typed and masked.
    expect(await remaskBatch({ db, bus }, 10)).toBe(1);
    const [rewritten] = await db.query<{ properties: object }>('SELECT properties FROM broker_event WHERE seq = $1', [
      row?.seq,
    ]);
    expect(JSON.stringify(rewritten?.properties)).not.toContain('4111');
    expect(rewritten?.properties).toMatchObject({ note: { type: 'string', value: 'ref •••• •••• •••• 1111' } });
  });

  it('withholds stored properties that are no object at all', async () => {
    const [row] = await db.query<{ seq: string }>(
      `INSERT INTO broker_event (cluster_id, node_id, logical_node, kind, properties, broker_time, received_at,
                                 policy_version)
       VALUES ($1, $2, $3, 'CONSUMER_CREATED', $4, now(), now(), 1) RETURNING seq`,
      [clusterId, nodeId, `node:${nodeId}`, JSON.stringify(CARD)],
    );
    const stored = await listEvents(db.pool, listEventsInput.parse({ clusterId, seq: row?.seq }));
    const [event] = (await governEvents({ db, bus }, stored.items, { clear: false })).events;
    // Read as an object, a string is one property per character: the card in clear, a digit at a time.
    expect(event?.properties).toEqual({});
  });
});
