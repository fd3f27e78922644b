// The REST edge on a real database: feature gate, problem+json for every failure, the common mutation flags.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModule } from '../../src/modules/kernel/plugin/descriptor.ts';
import { createCallerFactory, moduleProcedure, router } from '../../src/modules/kernel/access/procedure.ts';
import { createRestHandler } from '../../src/server/http/rest.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { openWebRuntime, type WebRuntime } from '../../src/server/runtime/web-runtime.ts';
import { hashPassword } from '../../src/modules/kernel/security/server/passwords.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

// A feature that exists only in this test, switched off the way an operator would.
const demoFeature = defineModule({
  id: 'demo-feature',
  title: 'Demo',
  layer: 'feature',
  description: 'fixture',
  requires: ['core'],
  apiPrefixes: ['/api/v1/demo'],
});
const modules = [...installedModules, demoFeature];

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;

let admin: AuthHeaders;

/** Calls as the signed-in admin unless `anonymous` is asked for. */
const call = (path: string, init: RequestInit = {}, as: 'admin' | 'anonymous' = 'admin') =>
  rest(
    new Request(`http://127.0.0.1${path}`, {
      ...init,
      headers: { ...(as === 'admin' ? admin : {}), ...(init.headers as Record<string, string> | undefined) },
    }),
  );
const put = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call(path, { method: 'PUT', body, headers });

beforeAll(async () => {
  secured = await openSecuredRuntime({ environment: { FLOTILLA_FEATURES_DEMO_FEATURE_ENABLED: 'false' }, modules });
  ({ runtime, rest } = secured);
  ({ auth: admin } = await secured.signedIn());
});

afterAll(async () => {
  await secured.close();
});

describe('REST edge', () => {
  it('answers every path under a disabled feature’s prefix with feature-disabled naming the property', async () => {
    for (const path of ['/api/v1/demo', '/api/v1/demo/anything/deeper?x=1']) {
      const response = await call(path, { method: path.includes('?') ? 'GET' : 'DELETE' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({
        type: 'feature-disabled',
        status: 404,
        property: 'flotilla.features.demo-feature.enabled',
        environmentVariable: 'FLOTILLA_FEATURES_DEMO_FEATURE_ENABLED',
      });
    }
  });

  it('refuses a disabled feature’s procedures on the tRPC side too', async () => {
    const demoRouter = router({ ping: moduleProcedure('demo-feature')('public').query(() => 'pong') });
    const caller = createCallerFactory(demoRouter)({
      runtime,
      request: { requestId: 'r1', actor: { name: 'test', userId: null }, sourceIp: null },
      http: { headers: new Headers(), secure: false },
      responseHeaders: new Headers(),
      principal: undefined,
      grants: () => Promise.resolve([]),
      globalPermissions: () => Promise.resolve(new Set<string>()),
    });
    await expect(caller.ping()).rejects.toMatchObject({ cause: { problem: { type: 'feature-disabled' } } });
  });

  it('lists the disabled feature in the manifest with its enabling property', async () => {
    const manifest = (await (await call('/api/v1/manifest')).json()) as {
      modules: { id: string; enabled: boolean; toggleSource: string }[];
    };
    expect(manifest.modules.find((module) => module.id === 'demo-feature')).toMatchObject({
      enabled: false,
      toggleSource: 'environment',
    });
    expect(manifest.modules.filter((module) => module.enabled).map((module) => module.id)).toEqual(
      installedModules.map((module) => module.id),
    );
  });

  it('answers an unknown route with a 404 problem carrying the request id it was given', async () => {
    const response = await call('/api/v1/no-such-thing', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    expect(await response.json()).toMatchObject({
      type: 'not-found',
      requestId: 'trace-123',
      instance: '/api/v1/no-such-thing',
    });
  });

  it('answers a path that carries a card number or an IBAN with them masked in its instance (the content policy)', async () => {
    const response = await call('/api/v1/no-such-thing/orders-4111111111111111/GB82WEST12345698765432');
    expect(response.status).toBe(404);
    const problem = (await response.json()) as { type: string; instance: string };
    expect(problem.type).toBe('not-found');
    expect(problem.instance).toMatch(/^\/api\/v1\/no-such-thing\/orders-/);
    expect(problem.instance).not.toContain('4111111111111111');
    expect(problem.instance).not.toContain('GB82WEST12345698765432');
  });

  it('lists every bad field of a request in one 400 problem', async () => {
    const response = await call('/api/v1/audit?pageSize=abc&clusterId=not-a-uuid&sort=colour');
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { type: string; errors: { field: string }[] };
    expect(problem.type).toBe('validation-failed');
    expect(problem.errors.map((error) => error.field).sort()).toEqual(['clusterId', 'pageSize', 'sort']);
  });

  it('rejects malformed JSON, a wrong content type and a bad dryRun flag, changing nothing', async () => {
    const before = await runtime.prisma.auditEvent.count();
    expect((await put('/api/v1/settings/audit.retention', '{"value":')).status).toBe(400);
    expect((await put('/api/v1/settings/audit.retention', 'value=2d', { 'content-type': 'text/plain' })).status).toBe(
      415,
    );
    const badFlag = await put('/api/v1/settings/audit.retention?dryRun=maybe', '{"value":"2d"}');
    expect(await badFlag.json()).toMatchObject({ status: 400, errors: [{ field: 'dryRun' }] });
    expect(await runtime.prisma.auditEvent.count()).toBe(before);
    expect(await runtime.prisma.flotillaSetting.count()).toBe(0);
  });

  it('takes ?dryRun=true on a mutation: audited as a dry run, nothing stored', async () => {
    const response = await put('/api/v1/settings/audit.retention?dryRun=true', '{"value":"30d"}');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ dryRun: true, previousValue: '365d', value: '30d' });
    expect(await runtime.prisma.flotillaSetting.count()).toBe(0);
    expect(
      await runtime.prisma.auditEvent.findFirst({ where: { action: 'setting.update', dryRun: true } }),
    ).not.toBeNull();
  });

  it('serves an OpenAPI 3 document with problem+json errors and the common mutation parameters', async () => {
    const document = (await (await call('/api/v1/openapi.json')).json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          { parameters?: { name: string }[]; responses: Record<string, { content?: Record<string, unknown> }> }
        >
      >;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/account',
      '/account/password',
      '/account/tokens',
      '/account/tokens/{id}',
      '/alerts',
      '/alerts/channels',
      '/alerts/channels/kinds',
      '/alerts/channels/{id}',
      '/alerts/channels/{id}/test',
      '/alerts/conditions',
      '/alerts/firing-by-cluster',
      '/alerts/rules',
      '/alerts/rules/{id}',
      '/alerts/{id}/acknowledge',
      '/alerts/{id}/deliveries',
      '/alerts/{id}/silence',
      '/alerts/{id}/transitions',
      '/alerts/{id}/unsilence',
      '/audit',
      '/auth/login',
      '/auth/logout',
      '/auth/providers',
      '/auth/throttles',
      '/auth/throttles/{key}',
      '/clusters',
      '/clusters/{clusterId}',
      '/clusters/{clusterId}/addresses',
      '/clusters/{clusterId}/addresses/{address}',
      '/clusters/{clusterId}/capabilities',
      '/clusters/{clusterId}/config',
      '/clusters/{clusterId}/config/adopt',
      '/clusters/{clusterId}/config/apply',
      '/clusters/{clusterId}/config/approvals',
      '/clusters/{clusterId}/config/drift',
      '/clusters/{clusterId}/config/plan',
      '/clusters/{clusterId}/config/recommendations',
      '/clusters/{clusterId}/config/revisions',
      '/clusters/{clusterId}/config/revisions/{number}',
      '/clusters/{clusterId}/config/runs',
      '/clusters/{clusterId}/config/schema',
      '/clusters/{clusterId}/config/secrets',
      '/clusters/{clusterId}/config/secrets/{name}',
      '/clusters/{clusterId}/connections',
      '/clusters/{clusterId}/connections/{connectionId}',
      '/clusters/{clusterId}/connections/{connectionId}/close',
      '/clusters/{clusterId}/consumer-health',
      '/clusters/{clusterId}/consumers',
      '/clusters/{clusterId}/dead-letters/redrive',
      '/clusters/{clusterId}/diverts',
      '/clusters/{clusterId}/diverts/{divert}',
      '/clusters/{clusterId}/events',
      '/clusters/{clusterId}/messages',
      '/clusters/{clusterId}/messages/send',
      '/clusters/{clusterId}/metrics/cluster',
      '/clusters/{clusterId}/metrics/queue',
      '/clusters/{clusterId}/node-facts',
      '/clusters/{clusterId}/nodes',
      '/clusters/{clusterId}/nodes/{nodeId}',
      '/clusters/{clusterId}/producers',
      '/clusters/{clusterId}/queues',
      '/clusters/{clusterId}/queues/{queueName}',
      '/clusters/{clusterId}/queues/{queueName}/messages/delete',
      '/clusters/{clusterId}/queues/{queueName}/messages/move',
      '/clusters/{clusterId}/queues/{queueName}/messages/retry',
      '/clusters/{clusterId}/queues/{queueName}/pause',
      '/clusters/{clusterId}/queues/{queueName}/purge',
      '/clusters/{clusterId}/queues/{queueName}/resume',
      '/clusters/{clusterId}/rediscover',
      '/clusters/{clusterId}/routing/graph',
      '/clusters/{clusterId}/routing/where',
      '/clusters/{clusterId}/rr/correlations',
      '/clusters/{clusterId}/rr/expectations',
      '/clusters/{clusterId}/rr/expectations/history',
      '/clusters/{clusterId}/rr/flow',
      '/clusters/{clusterId}/rr/flows',
      '/clusters/{clusterId}/rr/trace',
      '/clusters/{clusterId}/sessions',
      '/clusters/{clusterId}/sql/completions',
      '/clusters/{clusterId}/sql/query',
      '/clusters/{clusterId}/sql/subscriptions',
      '/clusters/{clusterId}/sql/subscriptions/{id}',
      '/dead-letters',
      '/environments',
      '/environments/{environmentId}',
      '/fleet',
      '/governance/findings',
      '/governance/policy',
      '/governance/remask',
      '/governance/test',
      '/grants',
      '/grants/{id}',
      '/identity/providers/{providerId}/group-mappings',
      '/manifest',
      '/plugin-ui',
      '/plugins',
      '/plugins/safe-mode/leave',
      '/plugins/{id}',
      '/plugins/{id}/activate',
      '/plugins/{id}/disable',
      '/plugins/{id}/jobs/{jobId}/run',
      '/plugins/{id}/plan',
      '/plugins/{id}/purge',
      '/plugins/{id}/rollback',
      '/plugins/{id}/uninstall',
      '/queues',
      '/roles',
      '/roles/{id}',
      '/scrape/clusters/{clusterId}/queues',
      '/scrape/clusters/{clusterId}/sweeps',
      '/settings',
      '/settings/{key}',
      '/settings/{key}/history',
      '/sql/saved-queries',
      '/sql/saved-queries/{id}',
      '/system/jobs',
      '/triage',
      '/users',
      '/users/{id}',
    ]);
    const update = document.paths['/settings/{key}']?.put;
    // dryRun where the operation honours it; override only where a bulk cap applies (none of these).
    expect(update?.parameters?.map((parameter) => parameter.name)).toEqual(['key', 'dryRun']);
    expect(document.paths['/auth/login']?.post?.parameters ?? []).toEqual([]);
    expect(Object.keys(update?.responses['400']?.content ?? {})).toEqual(['application/problem+json']);
  });
});

describe('access', () => {
  async function userWithRole(
    username: string,
    role: 'viewer' | 'operator',
    mustChangePassword = false,
  ): Promise<AuthHeaders> {
    const id = randomUUID();
    const password = `${username}-password-1`;
    await runtime.prisma.user.create({
      data: { id, username, providerId: 'local', passwordHash: await hashPassword(password), mustChangePassword },
    });
    const roleRow = await runtime.prisma.role.findUniqueOrThrow({ where: { name: role } });
    await runtime.prisma.grant.create({
      data: { id: randomUUID(), roleId: roleRow.id, principal: 'USER', userId: id, scopeKind: 'GLOBAL' },
    });
    return signIn(rest, 'http://127.0.0.1', { username, password });
  }

  it('answers an anonymous caller 401, and public procedures to anyone', async () => {
    const response = await call('/api/v1/settings', {}, 'anonymous');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'unauthenticated' });
    expect((await call('/api/v1/auth/providers', {}, 'anonymous')).status).toBe(200);
  });

  it('answers a missing global permission 403 naming it', async () => {
    const viewer = await userWithRole('vera', 'viewer');
    expect((await call('/api/v1/settings', { headers: viewer }, 'anonymous')).status).toBe(200);
    const denied = await call('/api/v1/audit', { headers: viewer }, 'anonymous');
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ type: 'forbidden', permission: 'audit:read' });
    const change = await call(
      '/api/v1/settings/audit.retention',
      { method: 'PUT', body: '{"value":"30d"}', headers: { ...viewer, 'content-type': 'application/json' } },
      'anonymous',
    );
    expect(await change.json()).toMatchObject({ status: 403, permission: 'settings:write' });
  });

  it('refuses a cookie-authenticated change without the CSRF token', async () => {
    const response = await call(
      '/api/v1/settings/audit.retention?dryRun=true',
      { method: 'PUT', body: '{"value":"30d"}', headers: { cookie: admin.cookie, 'content-type': 'application/json' } },
      'anonymous',
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ type: 'csrf-token-missing' });
  });

  it('holds a user who must change their password to the password change', async () => {
    const pending = await userWithRole('otto', 'operator', true);
    expect(await (await call('/api/v1/audit', { headers: pending }, 'anonymous')).json()).toMatchObject({
      status: 403,
      type: 'password-change-required',
    });
    expect((await call('/api/v1/account', { headers: pending }, 'anonymous')).status).toBe(200);
  });
});

describe('REST edge when the database is gone', () => {
  it('answers 500 with the request id and no stack trace', async () => {
    const broken = await openWebRuntime({ DATABASE_URL: secured.databaseUrl }, installedModules);
    await broken.db.close();
    // A public procedure that needs the database: nothing before it touches the pool.
    const response = await createRestHandler(() => Promise.resolve(broken))(
      new Request('http://127.0.0.1/api/v1/auth/login', {
        method: 'POST',
        body: JSON.stringify({ username: 'someone', password: 'something' }),
        headers: { 'X-Request-Id': 'db-down-1', 'content-type': 'application/json' },
      }),
    );
    const body = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(body)).toMatchObject({ type: 'internal-error', requestId: 'db-down-1' });
    expect(body).not.toMatch(/at .*\.ts:\d+|stack|Prisma/i);
    // Closed whole (its modules' hooks too: the audit owner lock kept retrying on the dropped database, and its log
    // lines landed in whichever file this worker ran next); its pool, ended above, cannot be ended twice.
    await broken.close().catch(() => undefined);
  });
});
