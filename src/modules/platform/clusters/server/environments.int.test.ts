// The environments API on a real PostgreSQL through the REST handler: dry runs change nothing, names are unique
// regardless of case, every change is audited, and an environment in use cannot be removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let auth: AuthHeaders;

interface Environment {
  id: string;
  name: string;
  description: string;
  clusterCount: number;
}

async function call(method: string, path: string, body?: unknown) {
  const response = await rest(
    new Request(`http://127.0.0.1/api/v1${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, json: (await response.json()) as Environment & { type?: string } };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ runtime, rest } = secured);
  auth = await signIn(rest, 'http://127.0.0.1');
});

afterAll(async () => {
  await secured.close();
});

describe('environments API', () => {
  it('creates, renames and removes environments, each audited, dry runs changing nothing', async () => {
    expect((await call('POST', '/environments?dryRun=true', { name: 'staging' })).status).toBe(200);
    expect(await runtime.prisma.environment.count()).toBe(0);

    const created = await call('POST', '/environments', { name: 'staging', description: 'pre-production' });
    expect(created.json).toMatchObject({ name: 'staging', clusterCount: 0 });
    const duplicate = await call('POST', '/environments', { name: 'STAGING' });
    expect([duplicate.status, duplicate.json.type]).toEqual([409, 'environment-name-taken']);

    const renamed = await call('PATCH', `/environments/${created.json.id}`, { name: 'preprod' });
    expect(renamed.json.name).toBe('preprod');
    const listed = (await rest(new Request('http://127.0.0.1/api/v1/environments', { headers: auth })).then((r) =>
      r.json(),
    )) as { items: Environment[] };
    expect(listed.items.map((item) => item.name)).toEqual(['preprod']);

    await insertClusterRow(runtime.prisma, { name: 'c1', environmentId: created.json.id });
    const inUse = await call('DELETE', `/environments/${created.json.id}`);
    expect([inUse.status, inUse.json.type]).toEqual([409, 'environment-in-use']);
    await runtime.prisma.cluster.deleteMany();
    expect((await call('DELETE', `/environments/${created.json.id}?dryRun=true`)).status).toBe(200);
    expect(await runtime.prisma.environment.count()).toBe(1);
    expect((await call('DELETE', `/environments/${created.json.id}`)).status).toBe(200);
    expect(await runtime.prisma.environment.count()).toBe(0);

    const audit = await runtime.prisma.auditEvent.findMany({
      where: { action: { startsWith: 'environment.' } },
      orderBy: { startedAt: 'asc' },
    });
    expect(audit.map((row) => [row.action, row.dryRun, row.outcome])).toEqual([
      ['environment.create', true, 'SUCCEEDED'],
      ['environment.create', false, 'SUCCEEDED'],
      ['environment.update', false, 'SUCCEEDED'],
      ['environment.remove', true, 'SUCCEEDED'],
      ['environment.remove', false, 'SUCCEEDED'],
    ]);
  });
});
