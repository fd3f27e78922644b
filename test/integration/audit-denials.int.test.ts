// Denials are audited (issue 25, item 7): a refused call by a signed-in caller — a missing permission (403), a
// cluster it cannot see (the guard's 404, the cluster kept on the row), a conflict (409), a missing CSRF token —
// is one DENIED row per (principal, route, reason, cluster, window) whose count grows with each repeat, over REST
// and over the server-side caller that tRPC and MCP run. A principal flooding the log with failed, dry-run and
// denied rows is refused (429 audit-flood) past `audit.flood-rows`, itself audited once per route.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/installation/app-router.ts';
import { createCallerFactory } from '@/modules/kernel/access/procedure.ts';
import { hashPassword } from '@/modules/kernel/security/server/passwords.ts';
import { createTrpcContext } from '@/server/http/context.ts';
import { createStreamHandler } from '@/server/http/stream-route.ts';
import { type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { callRest } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let admin: AuthHeaders;
let viewer: AuthHeaders;
let scoped: AuthHeaders;
const visibleCluster = randomUUID();
const hiddenCluster = randomUUID();

async function createUser(username: string, role: string, scope: { kind: 'GLOBAL' | 'CLUSTER'; id?: string }) {
  const password = `denial-password-${randomUUID()}`;
  const userId = randomUUID();
  const roleRow = await runtime.prisma.role.findUniqueOrThrow({ where: { name: role } });
  await runtime.prisma.user.create({
    data: { id: userId, username, providerId: 'local', passwordHash: await hashPassword(password) },
  });
  await runtime.prisma.grant.create({
    data: { id: randomUUID(), roleId: roleRow.id, principal: 'USER', userId, scopeKind: scope.kind, scopeId: scope.id },
  });
  return signIn(secured.rest, 'http://127.0.0.1', { username, password });
}

async function setSetting(key: string, value: unknown) {
  const answer = await callRest(secured.rest, admin, 'PUT', `/settings/${key}`, { value });
  expect(answer.status).toBe(200);
}

const deniedRows = (actor: string) =>
  runtime.prisma.auditEvent.findMany({ where: { actor, outcome: 'DENIED' }, orderBy: { startedAt: 'asc' } });

/** Rows of one key: one per window the refusals fell in (a test may straddle a window's end), counts adding up. */
function expectOneRowPerWindow(rows: ReadonlyArray<{ count: number; parameters: unknown }>, refusals: number) {
  const windows = new Set(rows.map((row) => (row.parameters as { windowStart: string }).windowStart));
  expect(rows.length).toBe(windows.size);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(refusals);
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  runtime = secured.runtime;
  ({ auth: admin } = await secured.signedIn());
  await insertClusterRow(runtime.prisma, { id: visibleCluster, name: 'orders' });
  await insertClusterRow(runtime.prisma, { id: hiddenCluster, name: 'billing' });
  viewer = await createUser('denied-viewer', 'viewer', { kind: 'GLOBAL' });
  scoped = await createUser('denied-scoped', 'viewer', { kind: 'CLUSTER', id: visibleCluster });
  await setSetting('audit.flood-window', '1d');
}, 60_000);

afterAll(async () => {
  await secured.close();
});

describe('denials in the audit log', () => {
  it('keeps N missing-permission refusals as one row per window with their count, naming the permission', async () => {
    for (let index = 0; index < 7; index += 1) {
      expect((await callRest(secured.rest, viewer, 'GET', '/users')).status).toBe(403);
    }
    const rows = await deniedRows('denied-viewer');
    expectOneRowPerWindow(rows, 7);
    expect(rows[0]).toMatchObject({
      action: 'security.users.list',
      error: 'forbidden (users:read)',
      clusterId: null,
      dryRun: false,
    });
    expect(rows[0]?.parameters).toMatchObject({ status: 403, permission: 'users:read' });
    expect(rows[0]?.userId).toBeTruthy();
  });

  it('shares one row per key between web instances refusing in parallel', async () => {
    // A second web instance on the same database.
    const second = await openSecuredRuntime({ databaseUrl: secured.databaseUrl });
    try {
      const restOfSecond = second.rest;
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          callRest(index % 2 === 0 ? secured.rest : restOfSecond, viewer, 'GET', '/roles'),
        ),
      );
      expect(answers.every((answer) => answer.status === 403)).toBe(true);
    } finally {
      await second.close();
    }
    expectOneRowPerWindow(
      (await deniedRows('denied-viewer')).filter((row) => row.action === 'security.roles.list'),
      24,
    );
  });

  it('records the hidden cluster the guard refused, while the caller sees only the one 404', async () => {
    for (let index = 0; index < 5; index += 1) {
      const answer = await callRest(secured.rest, scoped, 'GET', `/clusters/${hiddenCluster}`);
      expect(answer.status).toBe(404);
      expect(JSON.stringify(answer.json)).not.toContain(hiddenCluster);
    }
    // Unknown ids are not kept apart: probing many ids cannot multiply rows.
    for (let index = 0; index < 4; index += 1) {
      expect((await callRest(secured.rest, scoped, 'GET', `/clusters/${randomUUID()}`)).status).toBe(404);
    }
    const rows = (await deniedRows('denied-scoped')).filter((row) => row.error === 'cluster-not-found');
    expectOneRowPerWindow(
      rows.filter((row) => row.clusterId === hiddenCluster),
      5,
    );
    expectOneRowPerWindow(
      rows.filter((row) => row.clusterId === null),
      4,
    );
    expect(rows.every((row) => row.action === 'clusters.get')).toBe(true);
    // The row names the hidden cluster as the audit log shows clusters: by id and by name.
    expect(rows.find((row) => row.clusterId === hiddenCluster)?.clusterName).toBe('billing');
  });

  it('audits the stream edge’s hidden cluster alike, and keeps no row for anonymous refusals', async () => {
    const stream = createStreamHandler(() => Promise.resolve(runtime));
    for (let index = 0; index < 3; index += 1) {
      const request = new Request(`http://127.0.0.1/api/v1/stream?clusterId=${hiddenCluster}&topics=health`, {
        headers: scoped,
      });
      expect((await stream(request)).status).toBe(404);
    }
    const rows = (await deniedRows('denied-scoped')).filter((row) => row.action === 'stream');
    expectOneRowPerWindow(rows, 3);
    expect(rows.every((row) => row.clusterId === hiddenCluster && row.error === 'cluster-not-found')).toBe(true);

    const before = await runtime.prisma.auditEvent.count();
    for (let index = 0; index < 5; index += 1) {
      expect((await secured.rest(new Request('http://127.0.0.1/api/v1/users'))).status).toBe(401);
    }
    expect(await runtime.prisma.auditEvent.count()).toBe(before);
  });

  it('keeps conflicts and CSRF refusals apart by reason and route, and each principal apart', async () => {
    const name = `env-${randomUUID().slice(0, 8)}`;
    expect((await callRest(secured.rest, admin, 'POST', '/environments', { name })).status).toBe(200);
    for (let index = 0; index < 3; index += 1) {
      expect((await callRest(secured.rest, admin, 'POST', '/environments', { name })).status).toBe(409);
    }
    const noToken = { cookie: admin.cookie, 'x-csrf-token': 'wrong' };
    for (let index = 0; index < 4; index += 1) {
      const answer = await callRest(secured.rest, noToken, 'POST', '/environments', { name: `${name}-x` });
      expect(answer.json).toMatchObject({ type: 'csrf-token-missing' });
    }
    const rows = await deniedRows('admin');
    expectOneRowPerWindow(
      rows.filter((row) => row.error === 'environment-name-taken'),
      3,
    );
    expectOneRowPerWindow(
      rows.filter((row) => row.error === 'csrf-token-missing'),
      4,
    );
    expect(rows.every((row) => row.action === 'clusters.environments.create')).toBe(true);
    // The viewer's refusals of the same route stay on the viewer's rows.
    expect((await callRest(secured.rest, viewer, 'POST', '/environments', { name })).status).toBe(403);
    expect(await deniedRows('admin')).toHaveLength(rows.length);
  });

  it('counts refusals through the server-side caller (what tRPC and MCP run) on the same rows', async () => {
    const request = new Request('http://127.0.0.1/api/trpc/security.users.list', { headers: viewer });
    const caller = createCallerFactory(appRouter)(await createTrpcContext(runtime, request));
    const before = (await deniedRows('denied-viewer')).find((row) => row.action === 'security.users.list');
    await expect(caller.security.users.list({})).rejects.toMatchObject({ cause: { problem: { status: 403 } } });
    const after = (await deniedRows('denied-viewer')).filter((row) => row.action === 'security.users.list');
    expect(after.reduce((sum, row) => sum + row.count, 0)).toBe(8);
    expect(before).toBeDefined();
  });

  it('leaves a refusal already audited by the work it stopped (a FAILED row) without a second row', async () => {
    const adminUser = await runtime.prisma.user.findFirstOrThrow({ where: { username: 'admin' } });
    // Deleting the only administrator is refused inside its audited transaction (409 last-admin).
    const answer = await callRest(secured.rest, admin, 'DELETE', `/users/${adminUser.id}`);
    expect(answer.json).toMatchObject({ status: 409, type: 'last-admin' });
    const rows = await runtime.prisma.auditEvent.findMany({ where: { actor: 'admin', action: 'user.delete' } });
    expect(rows.map((row) => row.outcome)).toEqual(['FAILED']);
    expect((await deniedRows('admin')).filter((row) => row.error === 'last-admin')).toEqual([]);
  });

  it('lists denials through the audit API filter, with their counts', async () => {
    const answer = await callRest(secured.rest, admin, 'GET', '/audit?outcome=DENIED&actor=denied-viewer');
    expect(answer.status).toBe(200);
    const items = answer.json.items as Array<{ outcome: string; count: number; action: string }>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.outcome === 'DENIED')).toBe(true);
    expect(items.find((item) => item.action === 'security.users.list')?.count).toBeGreaterThan(1);
    expect(JSON.stringify(answer.json)).not.toContain('dedupKey');
  });

  it('refuses the changes of a principal that floods the log with dry runs, auditing the refusal once', async () => {
    await setSetting('audit.flood-rows', 10);
    await expect.poll(() => runtime.settings.integer('audit.flood-rows')).toBe(10);
    const flooder = await createUser('denied-flooder', 'admin', { kind: 'GLOBAL' });
    const statuses: number[] = [];
    for (let index = 0; index < 25; index += 1) {
      const name = `flood-${index}`;
      statuses.push((await callRest(secured.rest, flooder, 'POST', '/environments', { name, dryRun: true })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    const rows = await runtime.prisma.auditEvent.findMany({ where: { actor: 'denied-flooder' } });
    expect(rows.filter((row) => row.dryRun)).toHaveLength(10);
    const refusals = rows.filter((row) => row.error === 'audit-flood');
    expectOneRowPerWindow(refusals, 15);
    // Reads go on, and so do other principals' changes.
    expect((await callRest(secured.rest, flooder, 'GET', '/users')).status).toBe(200);
    const other = await callRest(secured.rest, admin, 'POST', '/environments', { name: 'after-flood', dryRun: true });
    expect(other.status).toBe(200);
    // Signing out is no change to refuse.
    expect((await callRest(secured.rest, flooder, 'POST', '/auth/logout', {})).status).toBeLessThan(300);
    await setSetting('audit.flood-rows', 500);
  });
});
