// Users, roles and grants administration through the REST edge on a real database: create, list, change and
// delete each; validation problems and conflicts that change nothing; audit rows; the last-administrator rule;
// and a disabled user's session and API token refused at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

type Body = Record<string, unknown> & { items?: Record<string, unknown>[] };

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let root: AuthHeaders;

const ROOT = { username: 'root', password: 'oak tree password 123' };
/** A test user's password: long enough, and never holding the username (the policy refuses that). */
const passwordOf = (username: string) => `secret no. ${username.length}-${username.charCodeAt(0)} of the tests`;

async function call(method: string, path: string, options: { body?: unknown; as?: Record<string, string> } = {}) {
  const response = await rest(
    new Request(`http://127.0.0.1${path}`, {
      method,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      headers: { 'content-type': 'application/json', ...(options.as ?? root) },
    }),
  );
  return { status: response.status, body: (await response.json()) as Body };
}

const auditCount = (action: string, extra: Record<string, unknown> = {}) =>
  runtime.prisma.auditEvent.count({ where: { action, ...extra } });

async function roleId(name: string): Promise<string> {
  return (await runtime.prisma.role.findUniqueOrThrow({ where: { name } })).id;
}

async function createUser(username: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await call('POST', '/api/v1/users', {
    body: { username, password: passwordOf(username), ...extra },
  });
  expect(created.status).toBe(200);
  return (created.body.user as { id: string }).id;
}

async function grant(userId: string, role: string, scope: Record<string, unknown> = { kind: 'GLOBAL' }) {
  const created = await call('POST', '/api/v1/grants', { body: { userId, roleId: await roleId(role), scope } });
  expect(created.status).toBe(200);
  return (created.body.grant as { id: string }).id;
}

/** Grants at a scope need it to exist: a registered cluster's and an environment's rows (no broker involved). */
async function existingEnvironment(): Promise<string> {
  const id = randomUUID();
  await runtime.prisma.environment.create({ data: { id, name: `env-${id}` } });
  return id;
}

const existingCluster = () => insertClusterRow(runtime.prisma);

const signInAs = (username: string) => signIn(rest, 'http://127.0.0.1', { username, password: passwordOf(username) });

beforeAll(async () => {
  secured = await openSecuredRuntime({ admin: ROOT });
  ({ runtime, rest } = secured);
  root = await signIn(rest, 'http://127.0.0.1', ROOT);
});

afterAll(async () => {
  await secured.close();
});

describe('users', () => {
  it('creates a local user who must change the password, after a dry run that changes nothing', async () => {
    const body = {
      username: 'ada',
      displayName: 'Ada Lovelace',
      email: 'ada@example.org',
      password: 'analytical engine 1843',
    };
    const dry = await call('POST', '/api/v1/users?dryRun=true', { body });
    expect(dry).toMatchObject({ status: 200, body: { dryRun: true, user: { username: 'ada' } } });
    expect(await runtime.prisma.user.count({ where: { username: 'ada' } })).toBe(0);

    const created = await call('POST', '/api/v1/users', { body });
    expect(created.body).toMatchObject({
      dryRun: false,
      user: { username: 'ada', providerId: 'local', external: false, mustChangePassword: true, disabled: false },
    });
    const row = await runtime.prisma.user.findFirstOrThrow({ where: { username: 'ada' } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(created.body)).not.toContain('analytical engine 1843');
    expect(await auditCount('user.create', { target: 'ada', dryRun: false, outcome: 'SUCCEEDED', actor: 'root' })).toBe(
      1,
    );
    expect(await auditCount('user.create', { target: 'ada', dryRun: true })).toBe(1);
    const audit = await runtime.prisma.auditEvent.findFirstOrThrow({ where: { action: 'user.create', dryRun: false } });
    expect(JSON.stringify(audit)).not.toContain('analytical engine 1843');
  });

  it('refuses a taken username (regardless of case) with 409, and bad input with a validation problem', async () => {
    const before = await runtime.prisma.user.count();
    const taken = await call('POST', '/api/v1/users', { body: { username: 'ADA', password: 'another password 1' } });
    expect(taken).toMatchObject({ status: 409, body: { type: 'username-taken', errors: [{ field: 'username' }] } });
    const bad = await call('POST', '/api/v1/users', {
      body: { username: 'has space', email: 'not-an-email', password: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe('validation-failed');
    expect((bad.body.errors as { field: string }[]).map((error) => error.field).sort()).toEqual([
      'email',
      'password',
      'username',
    ]);
    const guessable = await call('POST', '/api/v1/users', { body: { username: 'weak', password: 'Password1234' } });
    expect(guessable).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'password', message: expect.stringMatching(/^is too easy to guess/) as unknown }] },
    });
    expect(await runtime.prisma.user.count()).toBe(before);
  });

  it('lists with q, sort and pages, external users included; gets one; 404 for an unknown id', async () => {
    await createUser('bob', { displayName: 'Robert Tables' });
    await runtime.prisma.user.create({
      data: { id: randomUUID(), username: 'carol', providerId: 'corp-sso', externalSubject: 'sub-carol' },
    });
    const byName = await call('GET', '/api/v1/users?q=tables');
    expect(byName.body).toMatchObject({ total: 1, items: [{ username: 'bob' }] });
    const byEmail = await call('GET', '/api/v1/users?q=EXAMPLE.org');
    expect(byEmail.body).toMatchObject({ total: 1, items: [{ username: 'ada' }] });
    const paged = await call('GET', '/api/v1/users?sort=-username&pageSize=2&page=1');
    expect(paged.body).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(paged.body.items?.map((user) => user.username)).toEqual(['root', 'carol']);
    const external = (await call('GET', '/api/v1/users?q=carol')).body.items?.[0];
    expect(external).toMatchObject({ providerId: 'corp-sso', external: true });
    expect((await call('GET', '/api/v1/users?sort=nope')).status).toBe(400);

    const one = await call('GET', `/api/v1/users/${String(external?.id)}`);
    expect(one.body).toMatchObject({ username: 'carol' });
    expect((await call('GET', `/api/v1/users/${randomUUID()}`)).body).toMatchObject({ status: 404, type: 'not-found' });
    expect((await call('GET', '/api/v1/users/not-a-uuid')).status).toBe(400);
  });

  it('changes names and email, resets a password (must change, sessions end) but never an external one', async () => {
    const id = await createUser('dora', { mustChangePassword: false });
    const dora = await signInAs('dora');
    const changed = await call('PATCH', `/api/v1/users/${id}`, {
      body: { displayName: 'Dora E.', email: 'dora@example.org', password: 'a fresh password 1' },
    });
    expect(changed.body).toMatchObject({
      sessionsEnded: 1,
      user: { displayName: 'Dora E.', email: 'dora@example.org', mustChangePassword: true },
    });
    expect((await call('GET', '/api/v1/account', { as: dora })).status).toBe(401);
    const again = await signIn(rest, 'http://127.0.0.1', { username: 'dora', password: 'a fresh password 1' });
    expect((await call('GET', '/api/v1/settings', { as: again })).body).toMatchObject({
      type: 'password-change-required',
    });
    const cleared = await call('PATCH', `/api/v1/users/${id}`, { body: { displayName: null } });
    expect(cleared.body).toMatchObject({ user: { displayName: null, email: 'dora@example.org' } });
    expect(await auditCount('user.update', { target: 'dora' })).toBe(2);

    const carol = await runtime.prisma.user.findFirstOrThrow({ where: { username: 'carol' } });
    const refused = await call('PATCH', `/api/v1/users/${carol.id}`, { body: { password: 'a fresh password 1' } });
    expect(refused).toMatchObject({
      status: 400,
      body: { type: 'validation-failed', errors: [{ field: 'password' }] },
    });
    expect((await runtime.prisma.user.findUniqueOrThrow({ where: { id: carol.id } })).passwordHash).toBeNull();
  });

  it('refuse a disabled user’s session and API token at once, and take them back when enabled', async () => {
    const id = await createUser('eve', { mustChangePassword: false });
    const eve = await signInAs('eve');
    const token = await call('POST', '/api/v1/account/tokens', { body: { name: 'eve-script' }, as: eve });
    expect(token.status).toBe(200);
    const bearer = { authorization: `Bearer ${String(token.body.token)}` };
    expect((await call('GET', '/api/v1/account', { as: bearer })).body).toMatchObject({ username: 'eve' });

    const disabled = await call('PATCH', `/api/v1/users/${id}`, { body: { disabled: true } });
    expect(disabled.body).toMatchObject({ sessionsEnded: 1, user: { disabled: true } });
    expect(await runtime.prisma.session.count({ where: { userId: id } })).toBe(0);
    expect((await call('GET', '/api/v1/account', { as: eve })).status).toBe(401);
    expect((await call('GET', '/api/v1/account', { as: bearer })).status).toBe(401);
    const login = await rest(
      new Request('http://127.0.0.1/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'eve', password: passwordOf('eve') }),
      }),
    );
    expect(login.status).toBe(401);

    await call('PATCH', `/api/v1/users/${id}`, { body: { disabled: false } });
    expect((await call('GET', '/api/v1/account', { as: bearer })).status).toBe(200);
    expect((await call('GET', '/api/v1/account', { as: eve })).status).toBe(401);
  });

  it('deletes a user with their grants, sessions and tokens; dry run first', async () => {
    const id = await createUser('fred', { mustChangePassword: false });
    await grant(id, 'viewer');
    const fred = await signInAs('fred');
    await call('POST', '/api/v1/account/tokens', { body: { name: 'fred-script' }, as: fred });
    const dry = await call('DELETE', `/api/v1/users/${id}?dryRun=true`);
    expect(dry.body).toMatchObject({ dryRun: true, sessionsEnded: 1, user: { username: 'fred', grantCount: 1 } });
    expect(await runtime.prisma.user.count({ where: { id } })).toBe(1);

    const deleted = await call('DELETE', `/api/v1/users/${id}`);
    expect(deleted.body).toMatchObject({ dryRun: false, user: { username: 'fred' } });
    expect(await runtime.prisma.user.count({ where: { id } })).toBe(0);
    expect(await runtime.prisma.grant.count({ where: { userId: id } })).toBe(0);
    expect(await runtime.prisma.apiToken.count({ where: { userId: id } })).toBe(0);
    expect((await call('GET', '/api/v1/account', { as: fred })).status).toBe(401);
    expect(await auditCount('user.delete', { target: 'fred' })).toBe(2);
    expect((await call('DELETE', `/api/v1/users/${id}`)).status).toBe(404);
  });

  it('need users:read and users:write', async () => {
    const id = await createUser('gus', { mustChangePassword: false });
    await grant(id, 'operator');
    const gus = await signInAs('gus');
    expect((await call('GET', '/api/v1/users', { as: gus })).body).toMatchObject({
      status: 403,
      type: 'forbidden',
      permission: 'users:read',
    });
    expect((await call('GET', '/api/v1/roles', { as: gus })).body).toMatchObject({ permission: 'roles:read' });
    expect((await call('GET', '/api/v1/users', { as: {} })).status).toBe(401);
  });
});

describe('roles', () => {
  it('lists the built-in roles and creates a custom one from the catalogue (sorted, no repeats)', async () => {
    const listed = await call('GET', '/api/v1/roles?pageSize=50');
    expect(listed.body.items?.filter((role) => role.builtIn).map((role) => role.name)).toEqual([
      'admin',
      'installer',
      'operator',
      'viewer',
    ]);
    const created = await call('POST', '/api/v1/roles', {
      body: {
        name: 'auditor',
        description: 'Reads the audit log',
        permissions: ['jobs:read', 'audit:read', 'jobs:read'],
      },
    });
    expect(created.body).toMatchObject({
      role: { name: 'auditor', builtIn: false, permissions: ['audit:read', 'jobs:read'], grantCount: 0 },
    });
    expect(await auditCount('role.create', { target: 'auditor' })).toBe(1);
    const id = (created.body.role as { id: string }).id;
    expect((await call('GET', `/api/v1/roles/${id}`)).body).toMatchObject({ name: 'auditor' });
    expect((await call('GET', '/api/v1/roles?q=audit:read')).body.items?.map((role) => role.name)).toContain('auditor');
  });

  it('refuses unknown permissions naming them, a taken name, and any change to a built-in role', async () => {
    const before = await runtime.prisma.role.count();
    const unknown = await call('POST', '/api/v1/roles', {
      body: { name: 'wizard', permissions: ['audit:read', 'magic:cast', 'queue:conjure'] },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { type: 'validation-failed', unknownPermissions: ['magic:cast', 'queue:conjure'] },
    });
    expect(String(unknown.body.detail)).toContain('magic:cast, queue:conjure');
    const taken = await call('POST', '/api/v1/roles', { body: { name: 'Auditor', permissions: [] } });
    expect(taken).toMatchObject({ status: 409, body: { type: 'role-name-taken' } });
    expect(await runtime.prisma.role.count()).toBe(before);

    const viewer = await roleId('viewer');
    const change = await call('PATCH', `/api/v1/roles/${viewer}`, { body: { permissions: ['settings:write'] } });
    expect(change).toMatchObject({ status: 409, body: { type: 'built-in-role' } });
    expect((await call('DELETE', `/api/v1/roles/${viewer}`)).body).toMatchObject({ type: 'built-in-role' });
    expect((await runtime.prisma.role.findUniqueOrThrow({ where: { id: viewer } })).permissions).not.toContain(
      'settings:write',
    );
  });

  it('changes a custom role, and refuses to delete one that grants use, saying how many', async () => {
    const id = await roleId('auditor');
    const updated = await call('PATCH', `/api/v1/roles/${id}`, {
      body: { name: 'auditors', permissions: ['audit:read'] },
    });
    expect(updated.body).toMatchObject({ role: { name: 'auditors', permissions: ['audit:read'] } });
    expect(await auditCount('role.update', { target: 'auditor' })).toBe(1);

    const hal = await createUser('hal', { mustChangePassword: false });
    const first = await grant(hal, 'auditors');
    await grant(hal, 'auditors', { kind: 'CLUSTER', id: await existingCluster() });
    const inUse = await call('DELETE', `/api/v1/roles/${id}`);
    expect(inUse).toMatchObject({ status: 409, body: { type: 'role-in-use', grantCount: 2 } });
    expect(String(inUse.body.detail)).toContain('2 grants');

    await call('DELETE', `/api/v1/grants/${first}`);
    await runtime.prisma.grant.deleteMany({ where: { roleId: id } });
    // An identity provider's group mapping gives the role too (its foreign key would cascade silently).
    await runtime.prisma.identityGroupMapping.create({
      data: { id: randomUUID(), providerId: 'corp', groupName: 'auditors', roleId: id, scopeKind: 'GLOBAL' },
    });
    expect((await call('DELETE', `/api/v1/roles/${id}`)).body).toMatchObject({ type: 'role-in-use', grantCount: 1 });
    await runtime.prisma.identityGroupMapping.deleteMany({ where: { roleId: id } });
    expect((await call('DELETE', `/api/v1/roles/${id}?dryRun=true`)).body).toMatchObject({ dryRun: true });
    expect(await runtime.prisma.role.count({ where: { id } })).toBe(1);
    expect((await call('DELETE', `/api/v1/roles/${id}`)).status).toBe(200);
    expect(await runtime.prisma.role.count({ where: { id } })).toBe(0);
  });
});

describe('grants', () => {
  it('give a user what the role allows, at the scope given, and take it away again', async () => {
    const id = await createUser('ivy', { mustChangePassword: false });
    const ivy = await signInAs('ivy');
    expect((await call('GET', '/api/v1/settings', { as: ivy })).status).toBe(403);

    const dry = await call('POST', '/api/v1/grants?dryRun=true', {
      body: { userId: id, roleId: await roleId('viewer'), scope: { kind: 'GLOBAL' } },
    });
    expect(dry.body).toMatchObject({ dryRun: true, grant: { username: 'ivy', roleName: 'viewer' } });
    expect(await runtime.prisma.grant.count({ where: { userId: id } })).toBe(0);

    const grantId = await grant(id, 'viewer');
    expect(await auditCount('grant.create', { target: 'ivy: viewer everywhere', dryRun: false })).toBe(1);
    expect((await call('GET', '/api/v1/settings', { as: ivy })).status).toBe(200);
    expect((await call('GET', '/api/v1/audit', { as: ivy })).status).toBe(403);

    const duplicate = await call('POST', '/api/v1/grants', {
      body: { userId: id, roleId: await roleId('viewer'), scope: { kind: 'GLOBAL' } },
    });
    expect(duplicate).toMatchObject({ status: 409, body: { type: 'grant-exists', grantId } });

    const environment = await existingEnvironment();
    await grant(id, 'operator', { kind: 'ENVIRONMENT', id: environment });
    const mine = await call('GET', `/api/v1/grants?userId=${id}&sort=roleName`);
    expect(mine.body).toMatchObject({
      total: 2,
      items: [
        { roleName: 'operator', scope: { kind: 'ENVIRONMENT', id: environment } },
        { roleName: 'viewer', scope: { kind: 'GLOBAL', id: null } },
      ],
    });
    expect((await call('GET', `/api/v1/grants?userId=${id}&scopeKind=ENVIRONMENT`)).body.total).toBe(1);
    expect((await call('GET', `/api/v1/grants?roleId=${await roleId('viewer')}&q=IVY`)).body.total).toBe(1);
    expect((await call('GET', `/api/v1/grants?q=${environment.slice(0, 8)}`)).body.total).toBe(1);
    // An environment-scoped operator grant gives no global permission.
    expect((await call('GET', '/api/v1/audit', { as: ivy })).status).toBe(403);

    expect((await call('DELETE', `/api/v1/grants/${grantId}`)).status).toBe(200);
    expect(await auditCount('grant.delete', { target: 'ivy: viewer everywhere' })).toBe(1);
    expect((await call('GET', '/api/v1/settings', { as: ivy })).status).toBe(403);
  });

  it('refuse bad scopes, unknown users and roles with validation problems, creating nothing', async () => {
    const user = (await runtime.prisma.user.findFirstOrThrow({ where: { username: 'ivy' } })).id;
    const viewer = await roleId('viewer');
    const before = await runtime.prisma.grant.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: user, roleId: viewer, scope: { kind: 'ENVIRONMENT' } }, 'scope.id'],
      [{ userId: user, roleId: viewer, scope: { kind: 'CLUSTER', id: 'prod-1' } }, 'scope.id'],
      [{ userId: user, roleId: viewer, scope: { kind: 'CLUSTER', id: randomUUID() } }, 'scope.id'],
      [{ userId: user, roleId: viewer, scope: { kind: 'ENVIRONMENT', id: randomUUID() } }, 'scope.id'],
      [{ userId: user, roleId: viewer, scope: { kind: 'GLOBAL', id: randomUUID() } }, 'scope.id'],
      [{ userId: user, roleId: viewer, scope: { kind: 'GALAXY' } }, 'scope.kind'],
      [{ userId: randomUUID(), roleId: viewer, scope: { kind: 'GLOBAL' } }, 'userId'],
      [{ userId: user, roleId: randomUUID(), scope: { kind: 'GLOBAL' } }, 'roleId'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('POST', '/api/v1/grants', { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body.errors as { field: string }[]).map((error) => error.field)).toEqual([field]);
    }
    expect(await runtime.prisma.grant.count()).toBe(before);
  });

  it('leave group grants to the identity providers: not listed, not deletable here', async () => {
    const groupGrant = await runtime.prisma.grant.create({
      data: {
        id: randomUUID(),
        roleId: await roleId('viewer'),
        principal: 'GROUP',
        providerId: 'corp-sso',
        groupName: 'ops',
        scopeKind: 'GLOBAL',
      },
    });
    const listed = await call('GET', '/api/v1/grants?pageSize=500');
    expect(listed.body.items?.map((row) => row.id)).not.toContain(groupGrant.id);
    expect((await call('DELETE', `/api/v1/grants/${groupGrant.id}`)).status).toBe(404);
    expect(await runtime.prisma.grant.count({ where: { id: groupGrant.id } })).toBe(1);
  });
});

describe('the role hierarchy', () => {
  it('keeps an admin from granting, building or taking over anything above their own permissions', async () => {
    const installer = await createUser('ines', { mustChangePassword: false });
    await grant(installer, 'installer');
    const alice = await createUser('alice', { mustChangePassword: false });
    await grant(alice, 'admin');
    const asAlice = { as: await signInAs('alice') };
    const beyond = { status: 403, body: { type: 'beyond-own-permissions', permissions: ['plugins:install'] } };

    expect(
      await call('POST', '/api/v1/grants', {
        ...asAlice,
        body: { userId: alice, roleId: await roleId('installer'), scope: { kind: 'GLOBAL' } },
      }),
    ).toMatchObject(beyond);
    const resetInstaller = { ...asAlice, body: { password: 'taken over password 1' } };
    expect(await call('PATCH', `/api/v1/users/${installer}`, resetInstaller)).toMatchObject(beyond);
    expect(await call('DELETE', `/api/v1/users/${installer}`, asAlice)).toMatchObject(beyond);
    const wizard = { ...asAlice, body: { name: 'wizard', permissions: ['audit:read', 'plugins:install'] } };
    expect(await call('POST', '/api/v1/roles', wizard)).toMatchObject(beyond);
    expect(await runtime.prisma.role.count({ where: { name: 'wizard' } })).toBe(0);
    expect(await runtime.prisma.grant.count({ where: { userId: alice } })).toBe(1);

    // What an admin holds, an admin may hand out and manage.
    const viewer = await createUser('vic', { mustChangePassword: false });
    expect(
      (
        await call('POST', '/api/v1/grants', {
          ...asAlice,
          body: { userId: viewer, roleId: await roleId('admin'), scope: { kind: 'GLOBAL' } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('PATCH', `/api/v1/users/${viewer}`, { ...asAlice, body: { password: 'a brand new password 42' } }))
        .status,
    ).toBe(200);
    expect(
      (await call('POST', '/api/v1/roles', { ...asAlice, body: { name: 'auditor-2', permissions: ['audit:read'] } }))
        .status,
    ).toBe(200);
    // The next tests count administrators: these ones go again.
    await runtime.prisma.user.deleteMany({ where: { username: { in: ['ines', 'alice', 'vic'] } } });
  });
});

describe('the last administrator', () => {
  it('cannot be deleted, disabled or lose the grant, not even in a dry run', async () => {
    const me = (await runtime.prisma.user.findFirstOrThrow({ where: { username: 'root' } })).id;
    const myGrant = (await runtime.prisma.grant.findFirstOrThrow({ where: { userId: me } })).id;
    const refusals = [
      await call('DELETE', `/api/v1/users/${me}`),
      await call('DELETE', `/api/v1/users/${me}?dryRun=true`),
      await call('PATCH', `/api/v1/users/${me}`, { body: { disabled: true } }),
      await call('DELETE', `/api/v1/grants/${myGrant}`),
    ];
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 409, body: { type: 'last-admin' } });
      expect(String(refusal.body.detail)).toContain('would leave no administrator');
    }
    expect(await runtime.prisma.user.findUniqueOrThrow({ where: { id: me } })).toMatchObject({ disabled: false });
    expect(await runtime.prisma.grant.count({ where: { id: myGrant } })).toBe(1);
    // Changing other things about the last administrator is fine.
    expect((await call('PATCH', `/api/v1/users/${me}`, { body: { displayName: 'Root' } })).status).toBe(200);
  });

  it('counts only enabled users with a global admin or installer grant of their own', async () => {
    const me = (await runtime.prisma.user.findFirstOrThrow({ where: { username: 'root' } })).id;
    const jan = await createUser('jan', { mustChangePassword: false });
    // Neither a scoped admin grant nor a global custom role with every permission makes an administrator.
    await grant(jan, 'admin', { kind: 'ENVIRONMENT', id: await existingEnvironment() });
    const everything = await call('POST', '/api/v1/roles', {
      body: { name: 'everything', permissions: runtime.registry.permissionCatalogue().map((entry) => entry.id) },
    });
    await grant(jan, (everything.body.role as { name: string }).name);
    expect((await call('DELETE', `/api/v1/users/${me}?dryRun=true`)).body).toMatchObject({ type: 'last-admin' });

    // The users list marks the only administrator, so the console does not offer what would be refused.
    const soleFlags = async () =>
      Object.fromEntries(
        (
          (await call('GET', '/api/v1/users?pageSize=100')).body.items as Array<{
            username: string;
            soleAdministrator: boolean;
          }>
        ).map((user) => [user.username, user.soleAdministrator]),
      );
    expect(await soleFlags()).toMatchObject({ root: true, jan: false });

    const installerGrant = await grant(jan, 'installer');
    expect((await call('DELETE', `/api/v1/users/${me}?dryRun=true`)).body).toMatchObject({ dryRun: true });
    expect(await soleFlags()).toMatchObject({ root: false, jan: false });
    // Disabled, jan no longer counts.
    expect((await call('PATCH', `/api/v1/users/${jan}`, { body: { disabled: true } })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/users/${me}?dryRun=true`)).body).toMatchObject({ type: 'last-admin' });
    await call('PATCH', `/api/v1/users/${jan}`, { body: { disabled: false } });

    // With two administrators one may go, and then the other is the last again.
    const rootGrant = (await runtime.prisma.grant.findFirstOrThrow({ where: { userId: me, scopeKind: 'GLOBAL' } })).id;
    expect((await call('DELETE', `/api/v1/grants/${rootGrant}`)).status).toBe(200);
    const janHeaders = await signInAs('jan');
    const last = await call('DELETE', `/api/v1/grants/${installerGrant}`, { as: janHeaders });
    expect(last).toMatchObject({ status: 409, body: { type: 'last-admin' } });
    expect(await auditCount('grant.delete', { outcome: 'FAILED' })).toBeGreaterThan(0);
  });
});
