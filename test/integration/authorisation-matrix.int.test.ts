// The authorisation matrix: each built-in role, granted at each scope (global, an environment, one cluster), calls
// a sample of procedures; every answer must be exactly the expected allow or the expected denial shape. An
// unexpected allow fails, and so does a denial that names a permission for a cluster the caller cannot see.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILT_IN_ROLES, type BuiltInRole } from '../../src/modules/kernel/plugin/descriptor.ts';
import { hashPassword } from '../../src/modules/kernel/security/server/passwords.ts';
import { createTrpcContext } from '../../src/server/http/context.ts';
import type { WebRuntime } from '../../src/server/runtime/web-runtime.ts';
import { createCallerFactory, moduleProcedure, router } from '../../src/modules/kernel/access/procedure.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

type ScopeKind = 'GLOBAL' | 'ENVIRONMENT' | 'CLUSTER';
const SCOPES: readonly ScopeKind[] = ['GLOBAL', 'ENVIRONMENT', 'CLUSTER'];

// Cluster-scoped procedures as a feature would declare them; the guard under test is the shared middleware.
const clusterInput = z.object({ clusterId: z.string() });
const clusterProbe = router({
  read: moduleProcedure('clusters')({ clusterPermission: 'cluster:read' })
    .input(clusterInput)
    .query(() => 'allowed'),
  write: moduleProcedure('clusters')({ clusterPermission: 'cluster:write' })
    .input(clusterInput)
    .mutation(() => 'allowed'),
});

interface Caller {
  readonly role: BuiltInRole;
  readonly scope: ScopeKind;
  readonly headers: AuthHeaders;
}

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let includedIn: Map<string, BuiltInRole>;
const callers: Caller[] = [];
const environmentId = randomUUID();
const clusterInEnvironment = randomUUID();
const otherCluster = randomUUID();
const unknownCluster = randomUUID();

function roleHolds(role: BuiltInRole, permission: string): boolean {
  const lowest = includedIn.get(permission);
  if (!lowest) throw new Error(`unknown permission ${permission}`);
  return BUILT_IN_ROLES.indexOf(role) >= BUILT_IN_ROLES.indexOf(lowest);
}

async function createCaller(role: BuiltInRole, scope: ScopeKind): Promise<Caller> {
  const username = `${role}-${scope.toLowerCase()}`;
  const password = `matrix-password-${randomUUID()}`;
  const userId = randomUUID();
  const roleRow = await runtime.prisma.role.findUniqueOrThrow({ where: { name: role } });
  await runtime.prisma.user.create({
    data: { id: userId, username, providerId: 'local', passwordHash: await hashPassword(password) },
  });
  await runtime.prisma.grant.create({
    data: {
      id: randomUUID(),
      roleId: roleRow.id,
      principal: 'USER',
      userId,
      scopeKind: scope,
      scopeId: scope === 'ENVIRONMENT' ? environmentId : scope === 'CLUSTER' ? clusterInEnvironment : null,
    },
  });
  return { role, scope, headers: await signIn(rest, 'http://127.0.0.1', { username, password }) };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ runtime, rest } = secured);
  const catalogue = runtime.registry.permissionCatalogue();
  includedIn = new Map(catalogue.map((permission) => [permission.id, permission.includedIn]));
  await runtime.prisma.environment.create({ data: { id: environmentId, name: 'production' } });
  await insertClusterRow(runtime.prisma, { id: clusterInEnvironment, name: 'orders', environmentId });
  await insertClusterRow(runtime.prisma, { id: otherCluster, name: 'billing' });
  for (const role of BUILT_IN_ROLES) for (const scope of SCOPES) callers.push(await createCaller(role, scope));
}, 120_000);

afterAll(async () => {
  await secured.close();
});

interface GlobalSample {
  readonly name: string;
  readonly permission: string;
  readonly request: () => Request;
}

const GLOBAL_SAMPLES: readonly GlobalSample[] = [
  {
    name: 'GET /settings',
    permission: 'settings:read',
    request: () => new Request('http://127.0.0.1/api/v1/settings'),
  },
  {
    name: 'PUT /settings/{key} (dry run)',
    permission: 'settings:write',
    request: () =>
      new Request('http://127.0.0.1/api/v1/settings/stream.keep-alive?dryRun=true', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value: '15s' }),
      }),
  },
  { name: 'GET /audit', permission: 'audit:read', request: () => new Request('http://127.0.0.1/api/v1/audit') },
  {
    name: 'GET /system/jobs',
    permission: 'jobs:read',
    request: () => new Request('http://127.0.0.1/api/v1/system/jobs'),
  },
];

async function send(caller: Caller, build: () => Request): Promise<Response> {
  const request = build();
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(caller.headers)) headers.set(name, value);
  return rest(new Request(request, { headers }));
}

describe('authorisation matrix: global procedures', () => {
  it('allows exactly the roles that hold the permission globally, and names the permission otherwise', async () => {
    const unexpected: string[] = [];
    for (const caller of callers) {
      for (const sample of GLOBAL_SAMPLES) {
        const response = await send(caller, sample.request);
        const allowed = caller.scope === 'GLOBAL' && roleHolds(caller.role, sample.permission);
        const cell = `${caller.role}@${caller.scope} ${sample.name}`;
        if (allowed && response.status !== 200) unexpected.push(`${cell}: expected 200, got ${response.status}`);
        if (!allowed) {
          const body = (await response.json()) as { status: number; permission?: string };
          if (response.status !== 403 || body.permission !== sample.permission) {
            unexpected.push(`${cell}: expected 403 naming ${sample.permission}, got ${response.status}`);
          }
        }
      }
    }
    expect(unexpected).toEqual([]);
  }, 120_000);
});

async function callCluster(caller: Caller, kind: 'read' | 'write', clusterId: string): Promise<unknown> {
  const context = await createTrpcContext(
    runtime,
    new Request('http://127.0.0.1/api/trpc/probe', { headers: caller.headers }),
  );
  const probe = createCallerFactory(clusterProbe)(context);
  try {
    return kind === 'read' ? await probe.read({ clusterId }) : await probe.write({ clusterId });
  } catch (error) {
    return (error as { cause?: { problem?: unknown } }).cause?.problem;
  }
}

describe('authorisation matrix: cluster-scoped procedures', () => {
  const reaches = (scope: ScopeKind, clusterId: string) => scope === 'GLOBAL' || clusterId === clusterInEnvironment;

  it('allows where a grant reaches the cluster with the permission, 404s where none reaches it', async () => {
    const unexpected: string[] = [];
    for (const caller of callers) {
      for (const kind of ['read', 'write'] as const) {
        const permission = `cluster:${kind}`;
        for (const clusterId of [clusterInEnvironment, otherCluster, unknownCluster]) {
          const answer = await callCluster(caller, kind, clusterId);
          const cell = `${caller.role}@${caller.scope} ${kind} ${clusterId === unknownCluster ? 'unknown' : clusterId === otherCluster ? 'billing' : 'orders'}`;
          const visible = clusterId !== unknownCluster && reaches(caller.scope, clusterId);
          if (!visible) {
            expect(answer, cell).toEqual({
              type: 'cluster-not-found',
              title: 'No such cluster',
              status: 404,
              detail: 'There is no such cluster, or none of your grants reaches it.',
            });
          } else if (roleHolds(caller.role, permission)) {
            if (answer !== 'allowed') unexpected.push(`${cell}: expected allowed, got ${JSON.stringify(answer)}`);
          } else if ((answer as { status?: number; permission?: string }).permission !== permission) {
            unexpected.push(`${cell}: expected 403 naming ${permission}, got ${JSON.stringify(answer)}`);
          }
        }
      }
    }
    expect(unexpected).toEqual([]);
  });

  // The real cluster-scoped procedures over REST, as a client calls them.
  const REAL: readonly { name: string; permission: string; request: (clusterId: string) => Request }[] = [
    {
      name: 'GET /clusters/{clusterId}',
      permission: 'cluster:read',
      request: (id) => new Request(`http://127.0.0.1/api/v1/clusters/${id}`),
    },
    {
      name: 'GET /clusters/{clusterId}/nodes',
      permission: 'cluster:read',
      request: (id) => new Request(`http://127.0.0.1/api/v1/clusters/${id}/nodes`),
    },
    {
      name: 'GET /scrape/clusters/{clusterId}/sweeps',
      permission: 'cluster:read',
      request: (id) => new Request(`http://127.0.0.1/api/v1/scrape/clusters/${id}/sweeps`),
    },
    {
      name: 'PATCH /clusters/{clusterId} (dry run)',
      permission: 'cluster:write',
      request: (id) =>
        new Request(`http://127.0.0.1/api/v1/clusters/${id}?dryRun=true`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ description: 'matrix' }),
        }),
    },
  ];

  it('holds for the real cluster procedures over REST, and lists only the clusters a grant reaches', async () => {
    const unexpected: string[] = [];
    for (const caller of callers) {
      for (const sample of REAL) {
        for (const clusterId of [clusterInEnvironment, otherCluster, unknownCluster]) {
          const response = await send(caller, () => sample.request(clusterId));
          const text = await response.text();
          const cell = `${caller.role}@${caller.scope} ${sample.name} ${clusterId}`;
          const visible = clusterId !== unknownCluster && reaches(caller.scope, clusterId);
          if (!visible) {
            const body = JSON.parse(text) as { type?: string };
            if (response.status !== 404 || body.type !== 'cluster-not-found' || text.includes(clusterId))
              unexpected.push(`${cell}: expected the cluster guard's 404, got ${response.status} ${text}`);
          } else if (roleHolds(caller.role, sample.permission)) {
            if (response.status !== 200) unexpected.push(`${cell}: expected 200, got ${response.status} ${text}`);
          } else if (response.status !== 403 || !text.includes(sample.permission)) {
            unexpected.push(`${cell}: expected 403 naming ${sample.permission}, got ${response.status}`);
          }
        }
      }
      const list = (await (await send(caller, () => new Request('http://127.0.0.1/api/v1/clusters'))).json()) as {
        items: { id: string }[];
      };
      const listed = list.items.map((item) => item.id).sort();
      const expected = (
        caller.scope === 'GLOBAL' ? [clusterInEnvironment, otherCluster] : [clusterInEnvironment]
      ).sort();
      if (JSON.stringify(listed) !== JSON.stringify(expected))
        unexpected.push(`${caller.role}@${caller.scope} GET /clusters listed ${listed.join(', ')}`);
    }
    expect(unexpected).toEqual([]);
    // Hundreds of calls one after another, each refusal now audited: about 20 s alone, more beside a full run.
  }, 120_000);

  it('answers an unknown and an unauthorised cluster identically, without the id', async () => {
    const clusterScoped = callers.find((caller) => caller.role === 'admin' && caller.scope === 'CLUSTER');
    if (!clusterScoped) throw new Error('no cluster-scoped admin');
    const unauthorised = await callCluster(clusterScoped, 'read', otherCluster);
    const unknown = await callCluster(clusterScoped, 'read', unknownCluster);
    expect(unauthorised).toEqual(unknown);
    expect(JSON.stringify(unauthorised)).not.toContain(otherCluster);
    expect(JSON.stringify(unauthorised)).not.toContain('cluster:read');
  });

  it('treats an id that is not a UUID like an unknown cluster', async () => {
    const globalAdmin = callers.find((caller) => caller.role === 'admin' && caller.scope === 'GLOBAL');
    if (!globalAdmin) throw new Error('no global admin');
    expect(await callCluster(globalAdmin, 'read', "' OR 1=1 --")).toMatchObject({ type: 'cluster-not-found' });
  });
});
