// Moving a cluster between environments through PATCH /clusters/{id}: an administrator of one environment must
// not carry a cluster out of it, into an environment they do not control, or into one they would create.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

let secured: SecuredRuntime;
let admin: AuthHeaders;
const environments: Record<string, string> = {};

async function call(headers: AuthHeaders, method: string, path: string, body?: unknown) {
  const response = await secured.rest(
    new Request(`http://127.0.0.1/api/v1${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A user holding the built-in admin role at one scope only. */
async function scopedAdmin(username: string, scope: { kind: string; id: string }): Promise<AuthHeaders> {
  const password = `a long password, number ${username.length}`;
  const user = await call(admin, 'POST', '/users', { username, password, mustChangePassword: false });
  const role = await secured.runtime.prisma.role.findFirstOrThrow({ where: { name: 'admin' } });
  const grant = await call(admin, 'POST', '/grants', {
    userId: (user.json.user as { id: string }).id,
    roleId: role.id,
    scope,
  });
  expect(grant.status).toBe(200);
  return signIn(secured.rest, 'http://127.0.0.1', { username, password });
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  for (const name of ['prod', 'dev', 'lab']) {
    environments[name] = ((await call(admin, 'POST', '/environments', { name })).json as { id: string }).id;
  }
});

afterAll(async () => {
  await secured.close();
});

describe('moving a cluster to another environment', () => {
  it('needs cluster:write on the environment it leaves and on the one it joins, and everywhere to create one', async () => {
    const prodCluster = await insertClusterRow(secured.runtime.prisma, {
      name: 'payments',
      environmentId: environments.prod,
    });
    const devCluster = await insertClusterRow(secured.runtime.prisma, {
      name: 'sandbox',
      environmentId: environments.dev,
    });
    const devAdmin = await scopedAdmin('dana', { kind: 'ENVIRONMENT', id: environments.dev ?? '' });
    const clusterAdmin = await scopedAdmin('carl', { kind: 'CLUSTER', id: devCluster });

    // Into an environment the caller does not control, or a new one: refused, nothing changes, no environment made.
    const intoProd = await call(devAdmin, 'PATCH', `/clusters/${devCluster}`, { environment: 'prod' });
    expect([intoProd.status, intoProd.json.type]).toEqual([403, 'forbidden']);
    const intoNew = await call(devAdmin, 'PATCH', `/clusters/${devCluster}`, { environment: 'other' });
    expect([intoNew.status, intoNew.json.type]).toEqual([403, 'forbidden']);
    expect(await secured.runtime.prisma.environment.count({ where: { name: 'other' } })).toBe(0);
    // A grant on the cluster alone does not let its holder move it anywhere.
    const byClusterAdmin = await call(clusterAdmin, 'PATCH', `/clusters/${devCluster}`, { environment: 'dev' });
    expect(byClusterAdmin.status).toBe(200); // staying where it is changes no scope
    expect((await call(clusterAdmin, 'PATCH', `/clusters/${devCluster}`, { environment: 'lab' })).status).toBe(403);
    // Out of prod: the dev admin cannot even see it.
    expect((await call(devAdmin, 'PATCH', `/clusters/${prodCluster}`, { environment: 'dev' })).status).toBe(404);
    const where = await secured.runtime.prisma.cluster.findMany({ orderBy: { name: 'asc' } });
    expect(where.map((cluster) => cluster.environmentId)).toEqual([environments.prod, environments.dev]);

    // With write on both environments it moves; a global admin may also create the target.
    const labAndDev = await scopedAdmin('lee', { kind: 'ENVIRONMENT', id: environments.lab ?? '' });
    const devToo = await secured.runtime.prisma.role.findFirstOrThrow({ where: { name: 'admin' } });
    const lee = await secured.runtime.prisma.user.findFirstOrThrow({ where: { username: 'lee' } });
    await call(admin, 'POST', '/grants', {
      userId: lee.id,
      roleId: devToo.id,
      scope: { kind: 'ENVIRONMENT', id: environments.dev },
    });
    expect((await call(labAndDev, 'PATCH', `/clusters/${devCluster}`, { environment: 'lab' })).status).toBe(200);
    expect((await call(admin, 'PATCH', `/clusters/${prodCluster}`, { environment: 'brand-new' })).status).toBe(200);
    expect(await secured.runtime.prisma.environment.count({ where: { name: 'brand-new' } })).toBe(1);
  });
});
