// The REST edge on a real database: feature gate, problem+json for every failure, the common mutation flags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModule } from '../../src/modules/kernel/plugin/descriptor.ts';
import { createCallerFactory, moduleProcedure, router } from '../../src/server/trpc/init.ts';
import { createRestHandler } from '../../src/server/http/rest.ts';
import { installedModules } from '../../src/server/modules/installed-modules.ts';
import { openWebRuntime, type WebRuntime } from '../../src/server/runtime/web-runtime.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

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

let database: TestDatabase;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;

const call = (path: string, init: RequestInit = {}) => rest(new Request(`http://127.0.0.1${path}`, init));
const put = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call(path, { method: 'PUT', body, headers });

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = await openWebRuntime(
    { DATABASE_URL: database.url, FLOTILLA_FEATURES_DEMO_FEATURE_ENABLED: 'false' },
    modules,
  );
  rest = createRestHandler(() => Promise.resolve(runtime));
});

afterAll(async () => {
  await runtime.close();
  await database.drop();
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
      '/audit',
      '/auth/login',
      '/auth/logout',
      '/auth/providers',
      '/manifest',
      '/settings',
      '/settings/{key}',
      '/system/jobs',
    ]);
    const update = document.paths['/settings/{key}']?.put;
    expect(update?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['key', 'dryRun', 'override']),
    );
    expect(Object.keys(update?.responses['400']?.content ?? {})).toEqual(['application/problem+json']);
  });
});

describe('REST edge when the database is gone', () => {
  it('answers 500 with the request id and no stack trace', async () => {
    const broken = await openWebRuntime({ DATABASE_URL: database.url }, installedModules);
    await broken.db.close();
    const response = await createRestHandler(() => Promise.resolve(broken))(
      new Request('http://127.0.0.1/api/v1/audit', { headers: { 'X-Request-Id': 'db-down-1' } }),
    );
    const body = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(body)).toMatchObject({ type: 'internal-error', requestId: 'db-down-1' });
    expect(body).not.toMatch(/at .*\.ts:\d+|stack|Prisma/i);
    await broken.bus.close();
  });
});
