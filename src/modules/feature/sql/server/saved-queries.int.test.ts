// Saved queries over the REST API on real PostgreSQL: each user keeps their own, a shared one is listed to everyone
// with its owner's name, only the owner changes or deletes it, names are unique per owner, a dry run stores nothing,
// and every change is audited. A viewer, who may not query, may not capture either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithToken } from '@test/mcp-client.ts';
import { callRest, type RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';

let secured: SecuredRuntime;
let admin: RestCall;
let otto: RestCall;
let vera: RestCall;

interface Saved {
  id: string;
  name: string;
  sql: string;
  source: string;
  shared: boolean;
  ownerName: string;
  mine: boolean;
}

const bearer =
  (token: string): RestCall =>
  (method, path, body) =>
    callRest(secured.rest, { authorization: `Bearer ${token}` }, method, path, body);

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call: admin } = await secured.signedIn());
  otto = bearer(
    await userWithToken(secured.runtime, secured.rest, { username: 'otto', role: 'operator', tokenName: 'o' }),
  );
  vera = bearer(
    await userWithToken(secured.runtime, secured.rest, { username: 'vera', role: 'viewer', tokenName: 'v' }),
  );
}, 60_000);

afterAll(async () => {
  await secured.close();
});

const list = async (call: RestCall) =>
  (await call<{ items: Saved[]; total: number }>('GET', '/sql/saved-queries?sort=name')).json.items;

describe('saved queries', () => {
  it('keeps each user’s own, lists the shared ones to everyone, and lets only the owner change them', async () => {
    const dry = await otto('POST', '/sql/saved-queries', {
      name: 'orders 7731',
      sql: 'SELECT * FROM "orders.*" WHERE properties.orderId = 7731',
      source: 'index',
      dryRun: true,
    });
    expect(dry.status).toBe(200);
    expect(await list(otto)).toEqual([]);

    const mine = await otto<{ id: string }>('POST', '/sql/saved-queries', {
      name: 'orders 7731',
      sql: 'SELECT * FROM "orders.*" WHERE properties.orderId = 7731',
      source: 'index',
    });
    expect(mine.status).toBe(200);
    const shared = await otto<{ id: string }>('POST', '/sql/saved-queries', {
      name: 'late payments',
      sql: "SELECT * FROM payments WHERE time > now() - interval '1 hour'",
      source: 'live',
      shared: true,
    });
    expect(shared.status).toBe(200);

    expect((await list(otto)).map((query) => [query.name, query.mine])).toEqual([
      ['late payments', true],
      ['orders 7731', true],
    ]);
    // Another user sees only the shared one, with whose it is, and cannot change or delete it.
    const seen = await list(admin);
    expect(seen.map((query) => [query.name, query.ownerName, query.mine])).toEqual([['late payments', 'otto', false]]);
    const taken = await admin('POST', '/sql/saved-queries', {
      id: shared.json.id,
      name: 'mine now',
      sql: 'SELECT * FROM x',
      source: 'index',
    });
    expect(taken.status).toBe(404);
    expect((await admin('DELETE', `/sql/saved-queries/${shared.json.id}`, {})).status).toBe(404);

    const clash = await otto<{ type: string; errors: Array<{ field: string }> }>('POST', '/sql/saved-queries', {
      name: 'late payments',
      sql: 'SELECT * FROM y',
      source: 'index',
    });
    expect(clash.status).toBe(400);
    expect(clash.json.errors[0]?.field).toBe('name');

    const renamed = await otto('POST', '/sql/saved-queries', {
      id: mine.json.id,
      name: 'order 7731 everywhere',
      sql: 'SELECT * FROM "orders.#" WHERE properties.orderId = 7731',
      source: 'live',
    });
    expect(renamed.status).toBe(200);
    expect((await list(otto)).find((query) => query.id === mine.json.id)).toMatchObject({
      name: 'order 7731 everywhere',
      source: 'live',
    });
    expect((await otto('DELETE', `/sql/saved-queries/${mine.json.id}`, {})).status).toBe(200);
    expect((await list(otto)).map((query) => query.name)).toEqual(['late payments']);

    const actions = await secured.runtime.prisma.auditEvent.findMany({
      where: { action: { startsWith: 'sql.query.' } },
      orderBy: { startedAt: 'asc' },
      select: { action: true, dryRun: true, actor: true },
    });
    expect(actions.map((row) => `${row.action}${row.dryRun ? ' (dry run)' : ''}`)).toEqual([
      'sql.query.save (dry run)',
      'sql.query.save',
      'sql.query.save',
      'sql.query.update',
      'sql.query.remove',
    ]);
  });

  it('refuses bad input with the field it is about and stores nothing', async () => {
    const before = await list(otto);
    const empty = await otto('POST', '/sql/saved-queries', { name: '', sql: 'SELECT * FROM q', source: 'index' });
    expect(empty.status).toBe(400);
    const source = await otto('POST', '/sql/saved-queries', { name: 'x', sql: 'SELECT * FROM q', source: 'files' });
    expect(source.status).toBe(400);
    const long = await otto('POST', '/sql/saved-queries', { name: 'x', sql: 'x'.repeat(10_001), source: 'index' });
    expect(long.status).toBe(400);
    expect(await list(otto)).toEqual(before);
  });
});

describe('who may query and capture', () => {
  it('answers an unknown cluster as it answers one without the permission', async () => {
    const unknown = '00000000-0000-4000-8000-000000000001';
    const query = await vera('GET', `/clusters/${unknown}/sql/query?sql=${encodeURIComponent('SELECT * FROM q')}`);
    const capture = await otto('POST', `/clusters/${unknown}/sql/subscriptions`, {
      address: 'orders',
      mode: 'CAPTURE',
    });
    // An unknown cluster and one without the permission answer alike.
    expect([query.status, capture.status]).toEqual([404, 404]);
  });
});
