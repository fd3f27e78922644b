// Sign-in on a real database through the REST edge: first admin, providers, cookies, identical failures,
// throttling, sign-out, and the actor that audit rows then carry.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRestHandler } from '@/server/http/rest.ts';
import { handleTrpcRequest } from '@/server/http/trpc-route.ts';
import { installedModules } from '@/installation/modules.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { resolveModules } from '@/modules/kernel/plugin/index.ts';
import { createTestDatabase } from '@test/database.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from './built-in-roles-sync.ts';
import { resolveSession } from './sessions.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { callRest } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;

const ADMIN = { username: 'Ada', password: 'a long and correct password' };

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return rest(
    new Request(`http://127.0.0.1${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-flotilla-client-address': '198.51.100.7', ...headers },
    }),
  );
}
const login = (
  username: string,
  password: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => post('/api/v1/auth/login', { username, password, ...extra }, headers);

let adminHeaders: AuthHeaders;

async function setSetting(key: string, value: unknown) {
  const response = await callRest(rest, adminHeaders, 'PUT', `/settings/${key}`, { value });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  secured = await openSecuredRuntime({ admin: ADMIN });
  ({ runtime, rest } = secured);
  ({ auth: adminHeaders } = await secured.signedIn());
  // Generous limits by default; the throttle tests lower them.
  await setSetting('security.sign-in.pair-failures', 1000);
  await setSetting('security.sign-in.user-failures', 1000);
  await setSetting('security.sign-in.source-failures', 100_000);
});

afterEach(async () => {
  await runtime.prisma.signInThrottle.deleteMany();
});

afterAll(async () => {
  await secured.close();
});

describe('first run', () => {
  it('creates one admin from the environment, with a global admin grant, and never a second', async () => {
    // beforeAll created it from FLOTILLA_ADMIN_USERNAME/FLOTILLA_ADMIN_PASSWORD.
    expect(await ensureFirstAdmin(runtime.prisma, {})).toBeUndefined();
    expect(await runtime.prisma.user.count()).toBe(1);
    const user = await runtime.prisma.user.findFirstOrThrow({ where: { username: ADMIN.username } });
    expect(user.mustChangePassword).toBe(false);
    const grant = await runtime.prisma.grant.findFirstOrThrow({ where: { userId: user.id } });
    const role = await runtime.prisma.role.findUniqueOrThrow({ where: { id: grant.roleId } });
    expect({ scope: grant.scopeKind, role: role.name }).toEqual({ scope: 'GLOBAL', role: 'installer' });
    expect(role.permissions).toEqual(expect.arrayContaining(['settings:write', 'users:write', 'audit:read']));
  });

  it('refuses a guessable FLOTILLA_ADMIN_PASSWORD, and makes up a password that must be changed when none is given', async () => {
    const fresh = await createTestDatabase();
    const other = await openWebRuntime({ DATABASE_URL: fresh.url });
    try {
      await syncBuiltInRoles(other.prisma, other.registry.permissionCatalogue());
      // A guessable FLOTILLA_ADMIN_PASSWORD stops start-up, saying why and never echoing it; nobody is created.
      await expect(ensureFirstAdmin(other.prisma, { FLOTILLA_ADMIN_PASSWORD: 'Password1234' })).rejects.toThrow(
        /^FLOTILLA_ADMIN_PASSWORD is too easy to guess(?!.*Password1234)/,
      );
      expect(await other.prisma.user.count()).toBe(0);
      const admin = await ensureFirstAdmin(other.prisma, {});
      expect(admin?.username).toBe('admin');
      expect(admin?.generatedPassword).toMatch(/^[a-zA-Z2-9]{24}$/);
      expect((await other.prisma.user.findFirstOrThrow()).mustChangePassword).toBe(true);
    } finally {
      await other.close();
      await fresh.drop();
    }
  });
});

describe('sign-in', () => {
  it('lists the local provider and never a bearer one', async () => {
    const response = await rest(new Request('http://127.0.0.1/api/v1/auth/providers'));
    expect(await response.json()).toEqual([{ id: 'local', kind: 'credential', label: 'Flotilla account' }]);
  });

  it('starts a session: HttpOnly SameSite cookie, Secure behind TLS, audited, and later requests act as the user', async () => {
    const response = await login(ADMIN.username.toLowerCase(), ADMIN.password, {}, { 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(200);
    const cookies = response.headers.getSetCookie();
    const session = cookies.find((cookie) => cookie.startsWith('flotilla_session='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/Secure/);
    const plain = (await login(ADMIN.username, ADMIN.password)).headers.getSetCookie().join('\n');
    expect(plain).not.toMatch(/Secure/);
    const cookie = session?.split(';')[0] ?? '';
    const csrf =
      cookies
        .find((entry) => entry.startsWith('flotilla_csrf='))
        ?.split(';')[0]
        ?.split('=')[1] ?? '';
    const changed = await rest(
      new Request('http://127.0.0.1/api/v1/settings/audit.retention?dryRun=true', {
        method: 'PUT',
        body: JSON.stringify({ value: '30d' }),
        headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
      }),
    );
    expect(changed.status).toBe(200);
    const change = await runtime.prisma.auditEvent.findFirstOrThrow({
      where: { action: 'setting.update', dryRun: true },
      orderBy: { startedAt: 'desc' },
    });
    expect(change.actor).toBe(ADMIN.username);
    expect(
      await runtime.prisma.auditEvent.count({
        where: { action: 'auth.sign-in', outcome: 'SUCCEEDED', actor: ADMIN.username },
      }),
    ).toBe(3);
  });

  it('fails identically for a wrong password, an unknown user and an unconfigured provider', async () => {
    const answers = await Promise.all([
      login(ADMIN.username, 'wrong password'),
      login('nobody-at-all', ADMIN.password),
      login(ADMIN.username, ADMIN.password, { provider: 'ldap' }),
    ]);
    const shapes = await Promise.all(
      answers.map(async (response) => {
        const body = (await response.json()) as Record<string, unknown>;
        delete body.requestId; // the only field allowed to differ
        return { status: response.status, body, cookies: response.headers.getSetCookie().length };
      }),
    );
    expect(shapes[0]).toEqual({
      status: 401,
      body: expect.objectContaining({ type: 'sign-in-failed' }) as unknown,
      cookies: 0,
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });

  it('takes no measurably different time for an unknown user and a wrong password', async () => {
    let source = 0;
    const time = async (username: string) => {
      // A new address each time, so the throttle's progressive delay never answers instead of the password check.
      const from = { 'x-flotilla-client-address': `198.51.100.${100 + source++}` };
      const started = performance.now();
      expect((await login(username, 'not the password', {}, from)).status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 4; round++) {
      known.push(await time(ADMIN.username));
      unknown.push(await time(`ghost-${round}`));
    }
    // Both pay one scrypt verification (tens of ms); without the decoy an unknown user would answer in ~1 ms.
    // The bounds are wide on purpose: other tests share the two cores, and the fast path is 20x, not 2x.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    expect(median(unknown)).toBeLessThan(median(known) * 2.5);
  });

  it('locks a username at one address after too many failures, even for the right password, and says when to retry', async () => {
    await setSetting('security.sign-in.pair-failures', 3);
    for (let attempt = 0; attempt < 3; attempt++) expect((await login(ADMIN.username, 'wrong')).status).toBe(401);
    const locked = await login(ADMIN.username, ADMIN.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800); // the 15-minute window
    expect(await locked.json()).toMatchObject({
      type: 'sign-in-throttled',
      retryAfterSeconds: expect.any(Number) as unknown,
    });
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in', outcome: 'REFUSED' } })).toBe(1);
    // The same user from another address is not shut out by this one's guessing.
    const elsewhere = { 'x-flotilla-client-address': '203.0.113.9' };
    expect((await login(ADMIN.username, ADMIN.password, {}, elsewhere)).status).toBe(200);
    await setSetting('security.sign-in.pair-failures', 1000);
  });

  it('counts 40 parallel wrong passwords exactly: 3 checked, 37 refused before any check, none lost', async () => {
    await setSetting('security.sign-in.pair-failures', 5);
    const before = await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in' } });
    const statuses = (await Promise.all(Array.from({ length: 40 }, () => login('mallory', 'guess')))).map(
      (response) => response.status,
    );
    // Two free failures, then the third starts the wait: every other attempt is refused without a password check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
    const pair = await runtime.prisma.signInThrottle.findUniqueOrThrow({ where: { key: 'pair:mallory|198.51.100.7' } });
    expect(pair.failures).toBe(3);
    expect(pair.refused).toBe(37);
    // Three failures and one refusal are audited; the other 36 refusals are only counted.
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in' } })).toBe(before + 4);
    await setSetting('security.sign-in.pair-failures', 1000);
  });

  it('slows a pair down after two failures before it locks', async () => {
    await setSetting('security.sign-in.pair-failures', 10);
    expect((await login('walter', 'x')).status).toBe(401);
    expect((await login('walter', 'x')).status).toBe(401);
    expect((await login('walter', 'x')).status).toBe(401); // the third failure starts the wait
    const waiting = await login('walter', 'x');
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await login('walter', 'x')).status).toBe(401);
    await setSetting('security.sign-in.pair-failures', 1000);
  });

  it('locks a username guessed from many addresses, and an administrator can lift the lock', async () => {
    await setSetting('security.sign-in.user-failures', 4);
    for (let source = 1; source <= 4; source++) {
      const from = { 'x-flotilla-client-address': `192.0.2.${source}` };
      expect((await login(ADMIN.username, 'wrong', {}, from)).status).toBe(401);
    }
    const fresh = { 'x-flotilla-client-address': '192.0.2.99' };
    expect((await login(ADMIN.username, ADMIN.password, {}, fresh)).status).toBe(429);

    const call = (method: string, path: string) =>
      rest(new Request(`http://127.0.0.1${path}`, { method, headers: { ...adminHeaders } }));
    const list = (await (await call('GET', '/api/v1/auth/throttles')).json()) as { items: { key: string }[] };
    expect(list.items.map((item) => item.key)).toContain('user:ada');
    const dryRun = await call('DELETE', `/api/v1/auth/throttles/${encodeURIComponent('user:ada')}?dryRun=true`);
    expect(dryRun.status).toBe(200);
    expect((await login(ADMIN.username, ADMIN.password, {}, fresh)).status).toBe(429);
    const unlocked = await call('DELETE', `/api/v1/auth/throttles/${encodeURIComponent('user:ada')}`);
    expect(await unlocked.json()).toMatchObject({ unlocked: { key: 'user:ada', kind: 'user', failures: 4 } });
    expect(
      await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in.unlock', target: 'user:ada' } }),
    ).toBe(2);
    expect((await login(ADMIN.username, ADMIN.password, {}, fresh)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/auth/throttles/${encodeURIComponent('user:ada')}`)).status).toBe(404);
    await setSetting('security.sign-in.user-failures', 1000);
  });

  it('holds back unfamiliar addresses for a username guessed from many, never the owner at an address they signed in from, and tells the owner', async () => {
    await setSetting('security.sign-in.user-failures', 3);
    const home = { 'x-flotilla-client-address': '203.0.113.77' };
    expect((await login(ADMIN.username, ADMIN.password, {}, home)).status).toBe(200); // the owner's own address
    const windowStart = Date.now();
    for (let source = 10; source < 13; source++) {
      const from = { 'x-flotilla-client-address': `192.0.2.${source}` };
      expect((await login(ADMIN.username, 'wrong', {}, from)).status).toBe(401);
    }
    const stranger = await login(ADMIN.username, ADMIN.password, {}, { 'x-flotilla-client-address': '192.0.2.13' });
    expect(stranger.status).toBe(429);
    expect(await stranger.json()).toMatchObject({
      type: 'sign-in-throttled',
      detail: expect.stringMatching(/from addresses it has not signed in from/) as unknown,
    });
    // The owner, at home, is not locked out by the guessing, and sees it on their account.
    const owner = await login(ADMIN.username, ADMIN.password, {}, home);
    expect(owner.status).toBe(200);
    const cookie = owner.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const mine = await rest(new Request('http://127.0.0.1/api/v1/account', { headers: { cookie } }));
    const account = (await mine.json()) as Record<string, unknown>;
    expect(account.unfamiliarSignInFailures).toEqual({
      count: 3,
      since: expect.any(String) as unknown,
      lockedUntil: expect.any(String) as unknown,
    });
    const { since } = account.unfamiliarSignInFailures as { since: string };
    expect(Math.abs(Date.parse(since) - windowStart)).toBeLessThan(60_000);
    await runtime.prisma.signInThrottle.deleteMany({ where: { key: 'user:ada' } });
    await setSetting('security.sign-in.user-failures', 1000);
  });

  it('answers 40 parallel sign-ins, the right password among them, only with 200, 401 for a checked password, or 429', async () => {
    await setSetting('security.sign-in.pair-failures', 5);
    const from = { 'x-flotilla-client-address': '198.51.100.40' };
    const failedBefore = await runtime.prisma.auditEvent.count({
      where: { action: 'auth.sign-in', outcome: 'FAILED' },
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => login(ADMIN.username, n === 17 ? ADMIN.password : 'wrong', {}, from)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => ![200, 401, 429].includes(status))).toEqual([]);
    const failed = await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in', outcome: 'FAILED' } });
    // Every 401 is a password that was checked and audited as FAILED; every refusal without a check is a 429.
    expect(statuses.filter((status) => status === 401)).toHaveLength(failed - failedBefore);
    for (const answer of answers.filter((candidate) => candidate.status === 429)) {
      expect(await answer.json()).toMatchObject({ type: 'sign-in-throttled' });
    }
    await runtime.prisma.signInThrottle.deleteMany({ where: { key: { contains: '198.51.100.40' } } });
    await setSetting('security.sign-in.pair-failures', 1000);
  });

  it('slows down, never locks, an address that sprays many usernames', async () => {
    await setSetting('security.sign-in.source-failures', 4);
    for (let attempt = 0; attempt < 5; attempt++) await login(`spray-${attempt}`, 'x');
    const slowed = await login(ADMIN.username, ADMIN.password);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(
      (await login(ADMIN.username, ADMIN.password, {}, { 'x-flotilla-client-address': '203.0.113.50' })).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Number(slowed.headers.get('retry-after')) * 1000 + 100));
    expect((await login(ADMIN.username, ADMIN.password)).status).toBe(200);
    await setSetting('security.sign-in.source-failures', 100_000);
  });

  it('refuses a dry run of signing in or out, which has nothing to preview, before anything happens', async () => {
    const before = await runtime.prisma.auditEvent.count();
    const signInDryRun = await post('/api/v1/auth/login?dryRun=true', ADMIN);
    expect(signInDryRun.status).toBe(400);
    expect(await signInDryRun.json()).toMatchObject({ type: 'dry-run-not-supported' });
    expect(signInDryRun.headers.getSetCookie()).toEqual([]);
    expect((await post('/api/v1/auth/logout?dryRun=true', {})).status).toBe(400);
    expect(await runtime.prisma.auditEvent.count()).toBe(before);
    expect(await runtime.prisma.signInThrottle.count()).toBe(0);
  });

  it('refuses a tRPC batch of sign-ins before any password is checked', async () => {
    const before = await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in' } });
    const calls = Array.from({ length: 200 }, () => 'security.auth.login').join(',');
    const input = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [index, { json: ADMIN }]));
    const response = await handleTrpcRequest(
      new Request(`http://127.0.0.1/api/trpc/${calls}?batch=1`, {
        method: 'POST',
        body: JSON.stringify(input),
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'batch-refused' });
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in' } })).toBe(before);
  });

  it('ends the session at sign-out', async () => {
    const cookies = (await login(ADMIN.username, ADMIN.password)).headers
      .getSetCookie()
      .map((c) => c.split(';')[0] ?? '');
    const cookie = cookies.find((c) => c.startsWith('flotilla_session=')) ?? '';
    const csrf = cookies.find((c) => c.startsWith('flotilla_csrf='))?.split('=')[1] ?? '';
    // Ending a live session is a change made with the cookie: without the CSRF token it is refused and nothing ends.
    const forged = await post('/api/v1/auth/logout', {}, { cookie });
    expect(await forged.json()).toMatchObject({ status: 403, type: 'csrf-token-missing' });
    expect(await resolveSession(runtime.prisma, cookie.replace('flotilla_session=', ''), 60_000)).toBeDefined();
    const out = await post('/api/v1/auth/logout', {}, { cookie, 'x-csrf-token': csrf });
    expect(await out.json()).toEqual({ signedOut: true });
    expect(out.headers.getSetCookie().join('\n')).toMatch(/flotilla_session=; .*Max-Age=0/);
    expect(await resolveSession(runtime.prisma, cookie.replace('flotilla_session=', ''), 60_000)).toBeUndefined();
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-out', actor: ADMIN.username } })).toBe(
      1,
    );
    const again = await post('/api/v1/auth/logout', {}, { cookie });
    expect(await again.json()).toEqual({ signedOut: false });
  });
});

describe('without the identity-local feature', () => {
  it('lists no provider and fails a local sign-in exactly like a wrong password', async () => {
    const registry = resolveModules(installedModules, {
      environment: { FLOTILLA_FEATURES_IDENTITY_LOCAL_ENABLED: 'false' },
      stored: new Map(),
    });
    expect(registry.isEnabled('identity-local')).toBe(false);
    const off = await openWebRuntime({
      DATABASE_URL: secured.databaseUrl,
      FLOTILLA_FEATURES_IDENTITY_LOCAL_ENABLED: 'false',
    });
    try {
      const offRest = createRestHandler(() => Promise.resolve(off));
      expect(await (await offRest(new Request('http://127.0.0.1/api/v1/auth/providers'))).json()).toEqual([]);
      const response = await offRest(
        new Request('http://127.0.0.1/api/v1/auth/login', {
          method: 'POST',
          body: JSON.stringify(ADMIN),
          headers: { 'content-type': 'application/json', 'x-flotilla-client-address': '192.0.2.1' },
        }),
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ type: 'sign-in-failed' });
    } finally {
      await off.close();
    }
  });
});

describe('account', () => {
  const get = (path: string, headers: Record<string, string> = {}) =>
    rest(new Request(`http://127.0.0.1${path}`, { headers }));

  it('says who is signed in and what they may do everywhere; anonymous callers get 401', async () => {
    expect((await get('/api/v1/account')).status).toBe(401);
    const cookie = (await login(ADMIN.username, ADMIN.password)).headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const me = (await (await get('/api/v1/account', { cookie })).json()) as {
      username: string;
      globalPermissions: string[];
      grants: unknown[];
    };
    expect(me.username).toBe(ADMIN.username);
    expect(me.globalPermissions).toEqual(
      expect.arrayContaining(['settings:write', 'users:write', 'audit:read', 'jobs:read']),
    );
    expect(me.grants).toEqual([expect.objectContaining({ scope: 'GLOBAL', scopeId: null })]);
  });

  it('changes a password: checks the current one, lifts must-change, ends the other sessions only', async () => {
    const user = await runtime.prisma.user.findFirstOrThrow({ where: { username: ADMIN.username } });
    await runtime.prisma.user.update({ where: { id: user.id }, data: { mustChangePassword: true } });
    const other = await signIn(rest, 'http://127.0.0.1', ADMIN);
    const current = await signIn(rest, 'http://127.0.0.1', ADMIN);
    const wrong = await post(
      '/api/v1/account/password',
      { currentPassword: 'nope', newPassword: 'a brand new password' },
      current,
    );
    expect(await wrong.json()).toMatchObject({ status: 400, errors: [{ field: 'currentPassword' }] });
    const short = await post(
      '/api/v1/account/password',
      { currentPassword: ADMIN.password, newPassword: 'short' },
      current,
    );
    expect(await short.json()).toMatchObject({ status: 400, errors: [{ field: 'newPassword' }] });
    const guessable = await post(
      '/api/v1/account/password',
      { currentPassword: ADMIN.password, newPassword: 'Password1234' },
      current,
    );
    expect(await guessable.json()).toMatchObject({
      status: 400,
      errors: [{ field: 'newPassword', message: expect.stringMatching(/easy to guess.*commonly used/) as unknown }],
    });

    // A dry run checks everything, says what would happen, changes nothing and is audited as a dry run.
    const hashBefore = (await runtime.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
    const dryRun = await post(
      '/api/v1/account/password?dryRun=true',
      { currentPassword: ADMIN.password, newPassword: 'a brand new password' },
      current,
    );
    const others = (await runtime.prisma.session.count({ where: { userId: user.id } })) - 1;
    expect(await dryRun.json()).toEqual({ changed: false, otherSessionsEnded: others, dryRun: true });
    expect((await runtime.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(hashBefore);
    expect((await get('/api/v1/account', other)).status).toBe(200); // the other session lives on
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'account.password-change', dryRun: true } })).toBe(
      1,
    );

    const changed = await post(
      '/api/v1/account/password',
      { currentPassword: ADMIN.password, newPassword: 'a brand new password' },
      current,
    );
    expect((await changed.json()) as unknown).toMatchObject({ changed: true });
    expect((await runtime.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).mustChangePassword).toBe(false);
    expect((await get('/api/v1/account', other)).status).toBe(401);
    expect((await get('/api/v1/account', current)).status).toBe(200);
    expect((await login(ADMIN.username, 'a brand new password')).status).toBe(200);
    expect(
      await runtime.prisma.auditEvent.count({
        where: { action: 'account.password-change', outcome: 'SUCCEEDED', dryRun: false },
      }),
    ).toBe(1);
    ADMIN.password = 'a brand new password';
  });
});
