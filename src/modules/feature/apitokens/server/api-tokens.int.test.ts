// API token lifecycle on a real database: shown once, stored hashed, acts as its owner in audit, last use
// recorded, revocable, other users' tokens invisible, expired tokens dead.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHandler } from '@/server/http/rest.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from '../../../kernel/security/server/built-in-roles-sync.ts';
import { hashPassword } from '../../../kernel/security/server/passwords.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { tokenDigest } from './api-token.ts';
import { signIn, type AuthHeaders } from '../../../../../test/support/sign-in.ts';

let database: TestDatabase;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let admin: AuthHeaders;
let other: AuthHeaders;

async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await rest(
    new Request(`http://127.0.0.1${path}`, {
      method,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      headers: { 'content-type': 'application/json', ...options.headers },
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Who the server takes the caller for: the actor audit rows would carry, or `anonymous` when refused. */
async function actorSeenBy(headers: Record<string, string>): Promise<string> {
  const answer = await call('GET', '/api/v1/account', { headers });
  return answer.status === 401 ? 'anonymous' : (answer.body.actor as string);
}

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = await openWebRuntime({ DATABASE_URL: database.url });
  rest = createRestHandler(() => Promise.resolve(runtime));
  await syncBuiltInRoles(runtime.prisma, runtime.registry.permissionCatalogue());
  await ensureFirstAdmin(runtime.prisma, {
    FLOTILLA_ADMIN_USERNAME: 'grace',
    FLOTILLA_ADMIN_PASSWORD: 'grace password 1',
  });
  await runtime.prisma.user.create({
    data: {
      id: randomUUID(),
      username: 'linus',
      providerId: 'local',
      passwordHash: await hashPassword('linus password 1'),
    },
  });
  admin = await signIn(rest, 'http://127.0.0.1', { username: 'grace', password: 'grace password 1' });
  other = await signIn(rest, 'http://127.0.0.1', { username: 'linus', password: 'linus password 1' });
});

afterAll(async () => {
  await runtime.close();
  await database.drop();
});

describe('API tokens', () => {
  it('need a signed-in owner', async () => {
    expect(await call('POST', '/api/v1/account/tokens', { body: { name: 'ci' } })).toMatchObject({
      status: 401,
      body: { type: 'unauthenticated' },
    });
  });

  it('are shown once, stored only hashed, act as their owner and record their last use', async () => {
    const created = await call('POST', '/api/v1/account/tokens', {
      body: { name: 'deploy-bot' },
      headers: admin,
    });
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    expect(token).toMatch(/^as_[A-Za-z0-9_-]{32}$/);
    const row = await runtime.prisma.apiToken.findUniqueOrThrow({ where: { id: created.body.id as string } });
    expect(row.tokenHash).toBe(tokenDigest(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.lastUsedAt).toBeNull();

    expect(await actorSeenBy({ authorization: `Bearer ${token}` })).toBe('grace [token: deploy-bot]');
    expect((await runtime.prisma.apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).not.toBeNull();

    const listed = await call('GET', '/api/v1/account/tokens', { headers: admin });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: row.id, name: 'deploy-bot', lastUsedAt: expect.any(String) as unknown }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(
      await runtime.prisma.auditEvent.count({
        where: { action: 'apitoken.create', actor: 'grace', target: 'deploy-bot' },
      }),
    ).toBe(1);
  });

  it('refuse a second token of the same name', async () => {
    const again = await call('POST', '/api/v1/account/tokens', {
      body: { name: 'deploy-bot' },
      headers: admin,
    });
    expect(again).toMatchObject({ status: 409, body: { type: 'token-name-taken' } });
  });

  it('answer nothing for tokens that are not theirs, expired or revoked', async () => {
    expect(await actorSeenBy({ authorization: 'Bearer as_NotARealTokenNotARealTokenNotAReal' })).toBe('anonymous');
    expect(await actorSeenBy({ authorization: 'Bearer some-other-scheme-token' })).toBe('anonymous');

    const expiring = await call('POST', '/api/v1/account/tokens', {
      body: { name: 'short' },
      headers: admin,
    });
    await runtime.prisma.apiToken.update({
      where: { id: expiring.body.id as string },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await actorSeenBy({ authorization: `Bearer ${expiring.body.token as string}` })).toBe('anonymous');

    const revocable = await call('POST', '/api/v1/account/tokens', {
      body: { name: 'revocable' },
      headers: admin,
    });
    const bearer = { authorization: `Bearer ${revocable.body.token as string}` };
    expect(await actorSeenBy(bearer)).toBe('grace [token: revocable]');
    // Another user cannot see or revoke it: the answer is the one for a missing token.
    const foreign = await call('DELETE', `/api/v1/account/tokens/${revocable.body.id as string}`, {
      headers: other,
    });
    const missing = await call('DELETE', `/api/v1/account/tokens/${randomUUID()}`, {
      headers: other,
    });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, requestId: null, instance: null }).toEqual({
      ...missing.body,
      requestId: null,
      instance: null,
    });
    const revoked = await call('DELETE', `/api/v1/account/tokens/${revocable.body.id as string}`, {
      headers: admin,
    });
    expect(revoked.body).toMatchObject({ revoked: true });
    expect(await actorSeenBy(bearer)).toBe('anonymous');
  });

  it('take ?dryRun=true: audited, nothing created, no token shown', async () => {
    const dry = await call('POST', '/api/v1/account/tokens?dryRun=true', {
      body: { name: 'maybe' },
      headers: admin,
    });
    expect(dry.body).toMatchObject({ dryRun: true, token: null });
    expect(await runtime.prisma.apiToken.count({ where: { name: 'maybe' } })).toBe(0);
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'apitoken.create', dryRun: true } })).toBe(1);
  });
});
