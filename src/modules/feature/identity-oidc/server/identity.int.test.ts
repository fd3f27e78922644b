// External identities on a real database: the group-mappings API (PUT replaces the set, GET reads it, validation,
// dry run, audit, permissions), just-in-time accounts keyed by (provider, subject), and the effective grants a
// user's groups give — re-read at every sign-in, so a group removed at the provider stops counting.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHandler } from '@/server/http/rest.ts';
import { installedModules } from '@/installation/modules.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { signInProviders } from '@/modules/kernel/security/module.ts';
import { hashPassword, loadEffectiveGrants } from '@/modules/kernel/security/index.ts';
import { globalPermissions } from '@/modules/kernel/access/index.ts';
import { type AuthHeaders } from '@test/sign-in.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { identityOidcModule } from '../module.ts';
import type { ExternalIdentity } from './external-identity.ts';
import { provisionExternalUser } from './provisioning.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let admin: AuthHeaders;
let viewer: AuthHeaders;
const roleIds: Record<string, string> = {};

// Two configured OIDC providers, whatever this machine's environment says.
const modules = [
  ...installedModules.filter((module) => module.id !== identityOidcModule.id),
  defineModule({
    ...identityOidcModule,
    contributions: ['corp', 'partner'].map((id) =>
      contribution(signInProviders, { id, kind: 'redirect', label: id, startPath: `/api/v1/auth/oidc/signin/${id}` }),
    ),
  }),
];

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await rest(
    new Request(`http://127.0.0.1${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const mappingsPath = (providerId: string) => `/api/v1/identity/providers/${providerId}/group-mappings`;

const identity = (overrides: Partial<ExternalIdentity> = {}): ExternalIdentity => ({
  providerId: 'corp',
  subject: 'sub-1',
  username: 'dana',
  email: 'dana@example.com',
  displayName: 'Dana',
  groups: ['ops'],
  ...overrides,
});

const permissionsOf = async (userId: string) => globalPermissions(await loadEffectiveGrants(runtime.prisma, userId));

beforeAll(async () => {
  secured = await openSecuredRuntime({ admin: { username: 'root', password: 'oak tree password 1' }, modules });
  ({ runtime, rest } = secured);
  for (const role of await runtime.prisma.role.findMany()) roleIds[role.name] = role.id;
  const viewerId = randomUUID();
  await runtime.prisma.user.create({
    data: { id: viewerId, username: 'vic', providerId: 'local', passwordHash: await hashPassword('vic password 12') },
  });
  await runtime.prisma.grant.create({
    data: { id: randomUUID(), roleId: roleIds.viewer ?? '', principal: 'USER', userId: viewerId, scopeKind: 'GLOBAL' },
  });
  ({ auth: admin } = await secured.signedIn());
  ({ auth: viewer } = await secured.signedIn({ username: 'vic', password: 'vic password 12' }));
});

afterAll(async () => {
  await secured.close();
});

describe('GET/PUT /api/v1/identity/providers/{providerId}/group-mappings', () => {
  it('starts empty, and a PUT replaces the whole set and is audited', async () => {
    expect((await call('GET', mappingsPath('corp'), admin)).body).toEqual({
      providerId: 'corp',
      defaultRoleId: null,
      mappings: [],
    });
    // A mapping's cluster must exist: a registered cluster's row (no broker involved).
    const clusterId = await insertClusterRow(runtime.prisma, { name: 'orders' });
    const unknownCluster = await call('PUT', mappingsPath('corp'), admin, {
      defaultRoleId: null,
      mappings: [{ groupName: 'dba', roleId: roleIds.admin, scope: { kind: 'CLUSTER', id: randomUUID() } }],
    });
    expect(unknownCluster.body).toMatchObject({ status: 400, errors: [{ field: 'mappings.0.scope.id' }] });
    const first = await call('PUT', mappingsPath('corp'), admin, {
      defaultRoleId: roleIds.viewer,
      mappings: [
        { groupName: 'ops', roleId: roleIds.operator, scope: { kind: 'GLOBAL' } },
        { groupName: 'dba', roleId: roleIds.admin, scope: { kind: 'CLUSTER', id: clusterId } },
      ],
    });
    expect(first.status).toBe(200);
    const second = await call('PUT', mappingsPath('corp'), admin, {
      defaultRoleId: roleIds.viewer,
      mappings: [{ groupName: 'ops', roleId: roleIds.operator, scope: { kind: 'GLOBAL' } }],
    });
    expect(second.body).toEqual({
      providerId: 'corp',
      defaultRoleId: roleIds.viewer,
      mappings: [{ groupName: 'ops', roleId: roleIds.operator, scope: { kind: 'GLOBAL' } }],
      dryRun: false,
    });
    expect((await call('GET', mappingsPath('corp'), admin)).body.mappings).toHaveLength(1);
    // The other provider's set is its own.
    expect((await call('GET', mappingsPath('partner'), admin)).body.mappings).toEqual([]);
    const audits = await runtime.prisma.auditEvent.findMany({
      where: { action: 'identity.group-mappings.replace', target: 'corp' },
    });
    expect(audits.map((row) => [row.outcome, row.actor, row.dryRun])).toEqual([
      ['SUCCEEDED', 'root', false],
      ['SUCCEEDED', 'root', false],
    ]);
  });

  it('takes dryRun: audited as a dry run, nothing changed', async () => {
    const before = (await call('GET', mappingsPath('corp'), admin)).body;
    const dry = await call('PUT', `${mappingsPath('corp')}?dryRun=true`, admin, { defaultRoleId: null, mappings: [] });
    expect(dry.body).toMatchObject({ defaultRoleId: null, mappings: [], dryRun: true });
    expect((await call('GET', mappingsPath('corp'), admin)).body).toEqual(before);
    expect(
      await runtime.prisma.auditEvent.count({ where: { action: 'identity.group-mappings.replace', dryRun: true } }),
    ).toBe(1);
  });

  it('names every bad field: unknown roles, a scope without or with a stray id, repeats', async () => {
    const answer = await call('PUT', mappingsPath('corp'), admin, {
      defaultRoleId: randomUUID(),
      mappings: [
        { groupName: 'a', roleId: randomUUID(), scope: { kind: 'GLOBAL' } },
        { groupName: 'b', roleId: roleIds.viewer, scope: { kind: 'CLUSTER' } },
        { groupName: 'c', roleId: roleIds.viewer, scope: { kind: 'GLOBAL', id: randomUUID() } },
        { groupName: 'd', roleId: roleIds.viewer, scope: { kind: 'ENVIRONMENT', id: 'not-a-uuid' } },
        { groupName: 'e', roleId: roleIds.viewer, scope: { kind: 'GLOBAL' } },
        { groupName: 'e', roleId: roleIds.viewer, scope: { kind: 'GLOBAL' } },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('validation-failed');
    expect((answer.body.errors as { field: string }[]).map((error) => error.field)).toEqual([
      'defaultRoleId',
      'mappings.0.roleId',
      'mappings.1.scope.id',
      'mappings.2.scope.id',
      'mappings.3.scope.id',
      'mappings.5',
    ]);
    const badKind = await call('PUT', mappingsPath('corp'), admin, {
      defaultRoleId: null,
      mappings: [{ groupName: 'a', roleId: roleIds.viewer, scope: { kind: 'PLANET' } }],
    });
    expect(badKind.status).toBe(400);
    expect((await call('GET', mappingsPath('corp'), admin)).body.mappings).toHaveLength(1);
  });

  it('answers 404 for a provider that is not an external one, and needs roles:read / roles:write', async () => {
    expect((await call('GET', mappingsPath('local'), admin)).status).toBe(404);
    expect((await call('GET', mappingsPath('nowhere'), admin)).status).toBe(404);
    const read = await call('GET', mappingsPath('corp'), viewer);
    expect([read.status, read.body.permission]).toEqual([403, 'roles:read']);
    expect((await call('GET', mappingsPath('corp'), {})).status).toBe(401);
  });
});

describe('just-in-time accounts and their grants', () => {
  it('creates an account at the first sign-in and refreshes it at the next, keyed by provider and subject', async () => {
    const id = await provisionExternalUser(runtime.prisma, identity());
    const again = await provisionExternalUser(
      runtime.prisma,
      identity({ username: 'dana.k', email: 'dk@example.com', displayName: 'Dana K' }),
    );
    expect(again).toBe(id);
    expect(await runtime.prisma.user.findUniqueOrThrow({ where: { id } })).toMatchObject({
      username: 'dana.k',
      email: 'dk@example.com',
      displayName: 'Dana K',
      providerId: 'corp',
      externalSubject: 'sub-1',
      passwordHash: null,
    });
    // The same subject at another provider is another person.
    const partner = await provisionExternalUser(
      runtime.prisma,
      identity({ providerId: 'partner', username: 'dana.k' }),
    );
    expect(partner).not.toBe(id);
    expect((await runtime.prisma.user.findUniqueOrThrow({ where: { id: partner } })).username).toBe('dana.k@partner');
  });

  it('never takes a local account by name: the external account gets <name>@<provider>', async () => {
    const id = await provisionExternalUser(runtime.prisma, identity({ subject: 'sub-root', username: 'ROOT' }));
    const local = await runtime.prisma.user.findFirstOrThrow({ where: { providerId: 'local', username: 'root' } });
    expect(id).not.toBe(local.id);
    expect((await runtime.prisma.user.findUniqueOrThrow({ where: { id } })).username).toBe('ROOT@corp');
    const next = await provisionExternalUser(runtime.prisma, identity({ subject: 'sub-root-2', username: 'root' }));
    expect((await runtime.prisma.user.findUniqueOrThrow({ where: { id: next } })).username).toBe('root@corp-2');
  });

  it('grants the default role and the mapped roles of the groups held at the last sign-in', async () => {
    // corp: default viewer, ops → operator (set above).
    const id = await provisionExternalUser(runtime.prisma, identity({ subject: 'sub-ops', username: 'olga' }));
    const withOps = await permissionsOf(id);
    expect(withOps.has('audit:read')).toBe(true); // operator
    expect(withOps.has('settings:write')).toBe(false); // admin only
    // The group is gone at the provider: the next sign-in drops what it gave, the default role stays.
    await provisionExternalUser(runtime.prisma, identity({ subject: 'sub-ops', username: 'olga', groups: [] }));
    const without = await permissionsOf(id);
    expect(without.has('audit:read')).toBe(false);
    expect(without.has('jobs:read')).toBe(true); // viewer, the default role
    // A partner account holding a group called ops gets nothing from corp's mappings.
    const partner = await provisionExternalUser(
      runtime.prisma,
      identity({ providerId: 'partner', subject: 'sub-ops', username: 'olga' }),
    );
    expect([...(await permissionsOf(partner))]).toEqual([]);
  });
});

describe('the identity-oidc toggle', () => {
  it('lists the providers while on; off, lists none and answers feature-disabled under its prefix', async () => {
    const on = (await call('GET', '/api/v1/auth/providers', {})).body as unknown as { id: string; kind: string }[];
    expect(on.filter((entry) => entry.kind === 'redirect').map((entry) => entry.id)).toEqual(['corp', 'partner']);
    const off = await openWebRuntime(
      { DATABASE_URL: secured.databaseUrl, FLOTILLA_FEATURES_IDENTITY_OIDC_ENABLED: 'false' },
      modules,
    );
    try {
      const offRest = createRestHandler(() => Promise.resolve(off));
      const send = (path: string) => offRest(new Request(`http://127.0.0.1${path}`));
      expect(await (await send('/api/v1/auth/providers')).json()).toEqual([
        { id: 'local', kind: 'credential', label: 'Flotilla account' },
      ]);
      const start = await send('/api/v1/auth/oidc/signin/corp');
      expect([start.status, ((await start.json()) as { type: string }).type]).toEqual([404, 'feature-disabled']);
    } finally {
      await off.close();
    }
  });
});
