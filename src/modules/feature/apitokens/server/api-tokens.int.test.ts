// API token lifecycle on a real database: shown once, stored hashed, acts as its owner in audit, last use
// recorded, revocable, other users' tokens invisible, expired tokens dead.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { tokenDigest } from './api-token.ts';
import { refuseBeyondLimitsLocked } from './token-limits.ts';
import type { ProblemError } from '@/modules/kernel/core/index.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

let secured: SecuredRuntime;
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
  secured = await openSecuredRuntime({ admin: { username: 'grace', password: 'cobol compiler 1959' } });
  ({ runtime, rest } = secured);
  await runtime.prisma.user.create({
    data: {
      id: randomUUID(),
      username: 'linus',
      providerId: 'local',
      passwordHash: await hashPassword('linus password 1'),
    },
  });
  ({ auth: admin } = await secured.signedIn());
  ({ auth: other } = await secured.signedIn({ username: 'linus', password: 'linus password 1' }));
});

afterAll(async () => {
  await secured.close();
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

  it('live at most apitokens.max-lifetime (also when no expiry is asked), and a user holds at most apitokens.max-per-user', async () => {
    const threeYears = new Date(Date.now() + 3 * 365 * 86_400_000).toISOString();
    const tooLong = await call('POST', '/api/v1/account/tokens', {
      body: { name: 'forever', expiresAt: threeYears },
      headers: other,
    });
    expect(tooLong).toMatchObject({
      status: 400,
      body: { type: 'validation-failed', errors: [{ field: 'expiresAt' }] },
    });
    const defaulted = await call('POST', '/api/v1/account/tokens', { body: { name: 'defaulted' }, headers: other });
    const lifetime = Date.parse(defaulted.body.expiresAt as string) - Date.now();
    expect(lifetime).toBeGreaterThan(729 * 86_400_000);
    expect(lifetime).toBeLessThanOrEqual(730 * 86_400_000);

    const cap = await call('PUT', '/api/v1/settings/apitokens.max-per-user', { body: { value: 2 }, headers: admin });
    expect(cap.status).toBe(200);
    expect((await call('POST', '/api/v1/account/tokens', { body: { name: 'second' }, headers: other })).status).toBe(
      200,
    );
    const third = await call('POST', '/api/v1/account/tokens', { body: { name: 'third' }, headers: other });
    expect(third).toMatchObject({ status: 409, body: { type: 'token-limit', limit: 2 } });
    expect(await runtime.prisma.apiToken.count({ where: { name: 'third' } })).toBe(0);
    await call('PUT', '/api/v1/settings/apitokens.max-per-user', { body: { value: 50 }, headers: admin });
  });

  it('hold the cap under parallel creations: 80 at once against a cap of 50 make exactly 50', async () => {
    await runtime.prisma.user.create({
      data: {
        id: randomUUID(),
        username: 'ada',
        providerId: 'local',
        passwordHash: await hashPassword('ada password 1'),
      },
    });
    const ada = await signIn(rest, 'http://127.0.0.1', { username: 'ada', password: 'ada password 1' });
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, n) =>
        call('POST', '/api/v1/account/tokens', { body: { name: `parallel-${n}` }, headers: ada }),
      ),
    );
    const outcomes = answers.map(({ status, body }) => (status === 200 ? 'created' : `${status} ${String(body.type)}`));
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(50);
    expect(outcomes.filter((outcome) => outcome !== 'created')).toEqual(Array<string>(30).fill('409 token-limit'));
    const owner = await runtime.prisma.user.findFirstOrThrow({ where: { username: 'ada' } });
    expect(await runtime.prisma.apiToken.count({ where: { userId: owner.id } })).toBe(50);
  }, 90_000); // one owner's creations run one after another: 80 of them on a busy machine take a while

  it("hold the cap across web processes: the check inside the transaction waits on the owner's lock", async () => {
    // Transactions of several instances do not share the in-process queue: only the advisory lock orders them.
    const owner = await runtime.prisma.user.create({
      data: { id: randomUUID(), username: 'barbara', providerId: 'local', passwordHash: 'unused' },
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, n) =>
        runtime.prisma.$transaction(async (tx) => {
          await refuseBeyondLimitsLocked(tx, owner.id, `across-${n}`, 5);
          await tx.apiToken.create({
            data: { id: randomUUID(), userId: owner.id, name: `across-${n}`, tokenHash: tokenDigest(`across-${n}`) },
          });
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    const types = outcomes.map((outcome) =>
      outcome.status === 'fulfilled' ? 'created' : (outcome.reason as ProblemError).problem.type,
    );
    expect(types.filter((type) => type !== 'created')).toEqual(Array<string>(7).fill('token-limit'));
    expect(await runtime.prisma.apiToken.count({ where: { userId: owner.id } })).toBe(5);
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

  it('list like every other list: q, sort and pages, with the total', async () => {
    for (const name of ['list-b', 'list-a', 'list-c']) {
      expect((await call('POST', '/api/v1/account/tokens', { body: { name }, headers: admin })).status).toBe(200);
    }
    const page = await call('GET', '/api/v1/account/tokens?q=LIST-&sort=-name&page=2&pageSize=2', { headers: admin });
    expect(page.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect((page.body.items as { name: string }[]).map((item) => item.name)).toEqual(['list-a']);
    const bad = await call('GET', '/api/v1/account/tokens?sort=secret', { headers: admin });
    expect(bad.status).toBe(400);
  });

  it('slow down an address that guesses tokens, like failed sign-ins, auditing the refusals once, never refusing a valid token', async () => {
    const valid = (await call('POST', '/api/v1/account/tokens', { body: { name: 'guessed-at' }, headers: admin })).body
      .token as string;
    expect(
      (await call('PUT', '/api/v1/settings/security.sign-in.source-failures', { body: { value: 3 }, headers: admin }))
        .status,
    ).toBe(200);
    const from = (address: string, token: string) => ({
      authorization: `Bearer ${token}`,
      'x-flotilla-client-address': address,
    });
    const guess = (n: number) => from('198.51.100.99', `as_${'x'.repeat(31)}${n}`);
    for (let n = 0; n < 4; n++) expect((await call('GET', '/api/v1/account', { headers: guess(n) })).status).toBe(401);
    const slowed = await call('GET', '/api/v1/account', { headers: guess(8) });
    expect(slowed).toMatchObject({ status: 429, body: { type: 'sign-in-throttled' } });
    expect((await call('GET', '/api/v1/account', { headers: guess(9) })).status).toBe(429);
    // The guesses of a neighbour behind the same address never refuse a token that verifies.
    expect(await actorSeenBy(from('198.51.100.99', valid))).toBe('grace [token: guessed-at]');
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'auth.bearer', outcome: 'REFUSED' } })).toBe(1);
    const row = await runtime.prisma.signInThrottle.findUniqueOrThrow({ where: { key: 'bearer:198.51.100.99' } });
    expect([row.failures, row.refused]).toEqual([4, 2]);
    // Another address is not affected, and the slowed one is heard again once its wait is over.
    const elsewhere = from('198.51.100.100', `as_${'x'.repeat(31)}1`);
    expect((await call('GET', '/api/v1/account', { headers: elsewhere })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await call('GET', '/api/v1/account', { headers: guess(7) })).status).toBe(401);
    await call('PUT', '/api/v1/settings/security.sign-in.source-failures', { body: { value: 20 }, headers: admin });
  });
});
