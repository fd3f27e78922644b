// Runtime plugins end to end on a real database with real child processes: the sample plugin (examples/plugins,
// packed as `npm run plugin:pack` packs it) uploaded with step-up, refused when hostile, planned, activated into a
// process of its own, reached through the gateway behind the host's guards, configured, disabled, uninstalled and
// purged; a plugin's SQL kept out of the host's tables and other plugins' schemas by PostgreSQL itself; safe mode.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import { createMcpHandler } from '@/server/http/mcp-route.ts';
import { createStreamHandler } from '@/server/http/stream-route.ts';
import { INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { openWebRuntime } from '@/server/runtime/web-runtime.ts';
import { eventually } from '@test/eventually.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { connectMcp, issueToken, serveOverHttp, userWithToken } from '@test/mcp-client.ts';
import { callRest, type RestCall } from '@test/rest-call.ts';
import { servingWithGateway, userWithRole } from '@test/plugin-kit.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, TEST_ADMIN, type AuthHeaders } from '@test/sign-in.ts';
import { packPluginFolder } from '../pack/pack-folder.ts';
import { recordBoot } from './lifecycle/safe-mode.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../../../../../examples/plugins/naming-policy');
const password = TEST_ADMIN.password;
let dataDir: string;
let secured: SecuredRuntime;
let call: RestCall;
let send: (request: Request) => Promise<Response>;
let auth: AuthHeaders;
let archive: string;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A plugin folder written here: a manifest and a server bundle, packed as the sample is. */
async function packedPlugin(
  id: string,
  server: string,
  extra: Record<string, unknown> = {},
  migration?: string,
  assets: Record<string, Uint8Array> = {},
) {
  const folder = path.join(dataDir, 'sources', id);
  await mkdir(path.join(folder, 'migrations'), { recursive: true });
  const manifest = {
    id,
    name: `Test plugin ${id}`,
    version: '1.0.0',
    description: 'A plugin the tests write.',
    sdk: 1,
    activation: 'instant',
    server: 'server.js',
    permissions: [{ id: `${id}:use`, description: 'Use it', includedIn: 'viewer' }],
    routes: [
      { method: 'GET', path: '/sql', permission: `${id}:use`, cluster: false },
      { method: 'GET', path: '/events', permission: `${id}:use`, cluster: true },
    ],
    ...extra,
  };
  await writeFile(path.join(folder, 'plugin.json'), JSON.stringify(manifest));
  await writeFile(path.join(folder, 'server.js'), server);
  if (Object.keys(assets).length > 0) await mkdir(path.join(folder, 'assets'), { recursive: true });
  for (const [name, bytes] of Object.entries(assets)) await writeFile(path.join(folder, 'assets', name), bytes);
  if (migration) await writeFile(path.join(folder, 'migrations', '001-init.sql'), migration);
  else await rm(path.join(folder, 'migrations'), { recursive: true });
  return base64((await packPluginFolder(folder)).bytes);
}

// Runs the SQL it is given in its own schema and answers what PostgreSQL said.
const SQL_PLUGIN = `
export async function activate(api) {
  api.routes.add('GET', '/events', async (request) => {
    try {
      const clusterId = String(request.query.cluster ?? request.clusterId);
      return { body: { events: await api.events.list({ clusterId }) } };
    } catch (error) {
      return { status: 400, body: { error: String(error && error.message) } };
    }
  });
  api.routes.add('GET', '/sql', async (request) => {
    try {
      const result = await api.db.query(String(request.query.q), []);
      return { body: { rows: result.rows } };
    } catch (error) {
      return { status: 400, body: { error: String(error && error.message) } };
    }
  });
}
`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-plugins-'));
  secured = await openSecuredRuntime({ environment: { FLOTILLA_DATA_DIR: dataDir } });
  send = servingWithGateway(secured.runtime);
  call = (method, route, body, headers) => callRest(send, auth, method, route, body, { headers });
  ({ auth } = await secured.signedIn());
  archive = base64((await packPluginFolder(SAMPLE)).bytes);
}, 240_000); // the other file with the sample may hold the turn for a minute

afterAll(async () => {
  await secured.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('plugins', () => {
  it('upload only with step-up, never for an API token, and validate without storing on a dry run', async () => {
    expect(await call('POST', '/plugins', { archive })).toMatchObject({
      status: 403,
      json: { type: 'step-up-required' },
    });
    expect(await call('POST', '/plugins', { archive, password: 'not it' })).toMatchObject({
      status: 403,
      json: { type: 'step-up-failed' },
    });
    const token = await issueToken(secured.rest, (await secured.signedIn()).auth, 'plugins-ci');
    const byToken = await callRest(send, { authorization: `Bearer ${token}` }, 'POST', '/plugins', {
      archive,
      password,
    });
    expect(byToken).toMatchObject({ status: 403, json: { type: 'step-up-impossible' } });
    const dry = await call('POST', '/plugins', { archive, password, dryRun: true });
    expect(dry).toMatchObject({ status: 200, json: { id: 'naming-policy', version: '1.0.0', dryRun: true } });
    expect(await secured.runtime.prisma.pluginArchive.count()).toBe(0);
  });

  it('refuse a hostile archive with its findings and store nothing', async () => {
    const hostile = await packedPlugin('sneaky', 'export async function activate(api) { return eval("api") }');
    const refused = await call<{ type: string; findings: { code: string }[] }>('POST', '/plugins', {
      archive: hostile,
      password,
    });
    expect(refused.status).toBe(422);
    expect(refused.json.type).toBe('plugin-invalid');
    expect(refused.json.findings.map((finding) => finding.code)).toContain('bundle-denied-global');
    expect(await call('POST', '/plugins', { archive: 'not base64 at all!', password })).toMatchObject({ status: 400 });
    expect(await secured.runtime.prisma.pluginArchive.count()).toBe(0);
  });

  it('take an archive of megabytes, past the API’s usual body limit, only for the upload', async () => {
    const bulky = await packedPlugin('bulky', 'export async function activate() {}', {}, undefined, {
      'logo.png': randomBytes(3 * 1024 * 1024),
    });
    expect(bulky.length).toBeGreaterThan(4_000_000);
    expect(await call('POST', '/plugins', { archive: bulky, password, dryRun: true })).toMatchObject({
      status: 200,
      json: { id: 'bulky', dryRun: true },
    });
    // Anywhere else the usual limit holds.
    expect(await call('PUT', '/settings/audit.retention', { value: bulky })).toMatchObject({ status: 413 });
  });

  it('store an upload, refuse the same version twice, and plan its activation', async () => {
    expect(await call('POST', '/plugins', { archive, password })).toMatchObject({ status: 200 });
    expect(await call('POST', '/plugins', { archive, password })).toMatchObject({
      status: 409,
      json: { type: 'plugin-version-exists' },
    });
    const listed = await call<{ items: { id: string; state: string }[] }>('GET', '/plugins');
    expect(listed.json.items).toEqual([expect.objectContaining({ id: 'naming-policy', state: 'UPLOADED' })]);
    const plan = await call<{ allowed: boolean; adds: Record<string, string[]> }>(
      'GET',
      '/plugins/naming-policy/plan?operation=activate',
    );
    expect(plan.json).toMatchObject({ allowed: true, toVersion: '1.0.0' });
    expect(plan.json.adds.mcpTools).toEqual(['naming_policy_check']);
    expect(await call('GET', '/plugins/naming-policy/plan?operation=purge')).toMatchObject({
      json: { allowed: false },
    });
  });

  it('activate it into a process of its own, reached through the gateway behind the host’s guards', async () => {
    const dry = await call('POST', '/plugins/naming-policy/activate', { password, dryRun: true });
    expect(dry).toMatchObject({ status: 200, json: { dryRun: true, state: 'UPLOADED' } });
    const activated = await call('POST', '/plugins/naming-policy/activate', { password });
    expect(activated).toMatchObject({ status: 200, json: { state: 'ACTIVE', version: '1.0.0' } });
    const shown = await call<{ runningHere: { pid: number } | null }>('GET', '/plugins/naming-policy');
    expect(shown.json.runningHere?.pid).toBeGreaterThan(0);
    expect(shown.json.runningHere?.pid).not.toBe(process.pid);

    const verdict = await call('GET', '/p/naming-policy/check?name=orders.created');
    expect(verdict).toMatchObject({ status: 200, json: { name: 'orders.created', conforms: true } });
    expect(await call('GET', '/p/naming-policy/check?name=Orders')).toMatchObject({ json: { conforms: false } });
    expect(await call('GET', '/p/naming-policy/nothing-here')).toMatchObject({ status: 404 });
    // A cluster route for a cluster nobody has: the same 404 as everywhere, without echoing the id.
    const unknown = await call('GET', `/clusters/${randomUUID()}/p/naming-policy/violations`);
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.json)).not.toContain('/p/naming-policy');

    const viewer = await userWithRole(secured, send, 'vera', 'viewer');
    expect(await viewer('GET', '/p/naming-policy/check?name=a.b')).toMatchObject({ status: 200 });
    const nobody = await userWithRole(secured, send, 'nora', undefined);
    expect(await nobody('GET', '/p/naming-policy/check?name=a.b')).toMatchObject({
      status: 403,
      json: { permission: 'naming-policy:read' },
    });
    expect(await nobody('GET', '/plugins')).toMatchObject({ status: 403 });
    const audit = await secured.runtime.prisma.auditEvent.findMany({
      where: { action: { startsWith: 'plugin.' } },
      orderBy: { startedAt: 'asc' },
    });
    expect(audit.map((row) => `${row.action} ${row.outcome}`)).toEqual(
      expect.arrayContaining(['plugin.upload SUCCEEDED', 'plugin.activate SUCCEEDED']),
    );
  });

  it('let a custom role carry its permission alone, while it runs', async () => {
    // The catalogue lists a running plugin's permissions, marked with the plugin, for the role editor.
    const manifest = await call<{ permissions: { id: string; module: string; source?: string }[] }>('GET', '/manifest');
    expect(manifest.json.permissions).toContainEqual(
      expect.objectContaining({ id: 'naming-policy:read', module: 'plugins', source: 'naming-policy' }),
    );
    const role = await call<{ role: { permissions: string[] } }>('POST', '/roles', {
      name: 'naming checker',
      permissions: ['naming-policy:read'],
    });
    expect(role).toMatchObject({ status: 200, json: { role: { permissions: ['naming-policy:read'] } } });
    const checker = await userWithRole(secured, send, 'chris', 'naming checker');
    expect(await checker('GET', '/p/naming-policy/check?name=a.b')).toMatchObject({
      status: 200,
      json: { conforms: true },
    });
    // That one permission and nothing of the viewer tier it names: not the settings (settings:read is a viewer's).
    expect(await checker('GET', '/settings')).toMatchObject({ status: 403 });
    expect(await checker('GET', '/plugins')).toMatchObject({ status: 403 });
    // An id the plugin does not declare is no permission.
    expect(await call('POST', '/roles', { name: 'wishful', permissions: ['naming-policy:write'] })).toMatchObject({
      status: 400,
      json: { type: 'validation-failed', unknownPermissions: ['naming-policy:write'] },
    });
  });

  it('list its MCP tool to agents and run it in its process, as the real MCP client sees it', async () => {
    const listener = await serveOverHttp(createMcpHandler(() => Promise.resolve(secured.runtime)));
    try {
      const viewerToken = await userWithToken(secured.runtime, secured.rest, {
        username: 'victor',
        role: 'viewer',
        tokenName: 'agent',
      });
      const agent = await connectMcp(listener.url, viewerToken);
      const { tools } = await agent.listTools();
      const tool = tools.find((candidate) => candidate.name === 'naming_policy_check');
      expect(tool?.description).toMatch(/plugin Queue naming policy 1\.0\.0/);
      expect(tool?.annotations?.readOnlyHint).toBe(true);
      const answer = await agent.callTool({ name: 'naming_policy_check', arguments: { name: 'orders.created' } });
      expect(answer.isError).toBeFalsy();
      const [content] = answer.content as { type: string; text: string }[];
      expect(JSON.parse(content?.text ?? '{}')).toMatchObject({ name: 'orders.created', conforms: true });
      await agent.close();
    } finally {
      await listener.close();
    }
  });

  it('run its job now, in its own schema, audited', async () => {
    const ran = await call<{ result: Record<string, number> }>(
      'POST',
      '/plugins/naming-policy/jobs/naming-policy.scan/run',
      {},
    );
    expect(ran.status, JSON.stringify(ran.json)).toBe(200);
    expect(ran.json.result).toMatchObject({ clusters: 0, violations: 0 });
    expect(await call('POST', '/plugins/naming-policy/jobs/no-such-job/run', {})).toMatchObject({ status: 404 });
    const rows = await secured.runtime.prisma.auditEvent.findMany({ where: { action: 'plugin.job.run' } });
    expect(rows.map((row) => row.outcome)).toEqual(['SUCCEEDED']);
  });

  it('stop a plugin that loops or crashes without taking the service down, and say why', async () => {
    const looping = await packedPlugin(
      'loops',
      `export async function activate(api) {
  api.routes.add('GET', '/sql', async () => { for (;;) {} });
}`,
    );
    expect(await call('POST', '/plugins', { archive: looping, password })).toMatchObject({ status: 200 });
    expect(await call('POST', '/plugins/loops/activate', { password })).toMatchObject({ status: 200 });
    const stuck = await call('GET', '/p/loops/sql');
    expect([502, 504]).toContain(stuck.status);
    expect(stuck.json).toMatchObject({ type: 'plugin-failed' });
    const failed = await eventually(
      'the looping plugin marked FAILED',
      async () => {
        const shown = await call<{ state: string; lastError: string | null }>('GET', '/plugins/loops');
        return shown.json.state === 'FAILED' ? shown.json : undefined;
      },
      20_000,
    );
    expect(failed.lastError).toMatch(/unresponsive|cpu/);
    // The service answers on, and the other plugin still runs.
    expect(await call('GET', '/p/naming-policy/check?name=a.b')).toMatchObject({ status: 200 });
    expect(await call('POST', '/plugins/loops/disable', { password })).toMatchObject({ json: { state: 'DISABLED' } });
  }, 60_000);

  it('offer its declared topics to stream subscribers while it runs', async () => {
    const stream = createStreamHandler(() => Promise.resolve(secured.runtime));
    const ready = async () => {
      const controller = new AbortController();
      const response = await stream(
        new Request(
          `http://127.0.0.1/api/v1/stream?clusterId=${INSTALLATION_SCOPE_ID}&topics=naming-policy.violations,plugins`,
          {
            headers: auth,
            signal: controller.signal,
          },
        ),
      );
      const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (reader && !text.includes('\n\n')) text += (await reader.read()).value ?? '';
      controller.abort();
      const data = /data: (.*)/.exec(text)?.[1] ?? '{}';
      return JSON.parse(data) as { topics: string[]; dropped: string[] };
    };
    expect((await ready()).topics.sort()).toEqual(['naming-policy.violations', 'plugins']);
  });

  it('take a changed setting at once', async () => {
    const changed = await call('PUT', '/settings/naming-policy.pattern', { value: '^[A-Z]+$' });
    expect(changed).toMatchObject({ status: 200 });
    await eventually(
      'the new pattern in force',
      async () => (await call('GET', '/p/naming-policy/check?name=ORDERS')).json.conforms === true || undefined,
      10_000,
    );
    expect(await call('PUT', '/settings/naming-policy.pattern', { value: 3 })).toMatchObject({
      status: 400,
    });
  });

  it('keep a plugin’s SQL out of the host’s tables and every other plugin’s schema', async () => {
    const migration = 'CREATE TABLE note (id integer PRIMARY KEY, text text NOT NULL);';
    for (const id of ['sql-one', 'sql-two']) {
      const packed = await packedPlugin(id, SQL_PLUGIN, {}, migration);
      expect(await call('POST', '/plugins', { archive: packed, password })).toMatchObject({ status: 200 });
      expect(await call('POST', `/plugins/${id}/activate`, { password })).toMatchObject({ status: 200 });
    }
    const sql = (id: string, q: string) =>
      call<{ rows?: unknown[]; error?: string }>('GET', `/p/${id}/sql?q=${encodeURIComponent(q)}`);
    expect(await sql('sql-one', "INSERT INTO note VALUES (1, 'mine') RETURNING id")).toMatchObject({
      status: 200,
      json: { rows: [{ id: 1 }] },
    });
    expect((await sql('sql-one', 'SELECT text FROM note')).json.rows).toEqual([{ text: 'mine' }]);
    for (const [id, q] of [
      ['sql-two', 'SELECT * FROM plugin_sql_one.note'],
      ['sql-one', 'SELECT * FROM public.flotilla_user'],
      ['sql-one', 'SELECT * FROM public.plugin'],
      ['sql-one', 'SET ROLE postgres'],
      ['sql-one', "SELECT set_config('role', 'postgres', false)"],
    ] as const) {
      const answer = await sql(id, q);
      expect(answer.status, q).toBe(400);
      expect(answer.json.error, q).toMatch(/permission denied|must be member|cannot/i);
    }
  });

  it('read broker events only of clusters the user behind the call may see', async () => {
    const [mine, other] = [randomUUID(), randomUUID()];
    await insertClusterRow(secured.runtime.prisma, { id: mine, name: 'events-mine' });
    await insertClusterRow(secured.runtime.prisma, { id: other, name: 'events-other' });
    const asAdmin = await call('GET', `/clusters/${mine}/p/sql-one/events?cluster=${other}`);
    expect(asAdmin, JSON.stringify(asAdmin.json)).toMatchObject({
      status: 200,
      json: { events: [] },
    });
    // The sample's cluster route reads the cluster's queues through the host (none scraped here).
    expect(await call('GET', `/clusters/${mine}/p/naming-policy/violations`)).toMatchObject({
      status: 200,
      json: { clusterId: mine, checked: 0, violations: [] },
    });
    // A viewer of one cluster: the plugin, answering for them, cannot read the other cluster's events.
    const userPassword = 'cleo password 1';
    const userId = randomUUID();
    const { prisma } = secured.runtime;
    await prisma.user.create({
      data: { id: userId, username: 'cleo', providerId: 'local', passwordHash: await hashPassword(userPassword) },
    });
    const { id: roleId } = await prisma.role.findFirstOrThrow({ where: { name: 'viewer' } });
    await prisma.grant.create({
      data: { id: randomUUID(), roleId, principal: 'USER', userId, scopeKind: 'CLUSTER', scopeId: mine },
    });
    const own = await signIn(secured.rest, 'http://127.0.0.1', { username: 'cleo', password: userPassword });
    const cleo: RestCall = (method, route, body) => callRest(send, own, method, route, body);
    expect(await cleo('GET', `/clusters/${mine}/p/sql-one/events`)).toMatchObject({
      status: 200,
      json: { events: [] },
    });
    const refused = await cleo<{ error?: string }>('GET', `/clusters/${mine}/p/sql-one/events?cluster=${other}`);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/no such cluster/);
    expect((await cleo('GET', `/clusters/${other}/p/sql-one/events`)).status).toBe(404);
  });

  it('disable, uninstall and purge: the routes go, then the schema and the role', async () => {
    const carrier = await call<{ role: { id: string } }>('POST', '/roles', {
      name: 'sql user',
      permissions: ['sql-one:use', 'queue:read'],
    });
    expect(carrier.status).toBe(200);
    expect(await call('POST', '/plugins/sql-one/uninstall', { password })).toMatchObject({
      status: 409,
      json: { type: 'plugin-operation-refused' },
    });
    expect(await call('POST', '/plugins/sql-one/disable', { password })).toMatchObject({ json: { state: 'DISABLED' } });
    expect(await call('GET', '/p/sql-one/sql?q=select%201')).toMatchObject({ status: 404 });
    // Stopped, its permission is out of the catalogue; a role that carries it keeps it (granting nothing) and can
    // still be edited as it stands.
    const manifest = await call<{ permissions: { id: string }[] }>('GET', '/manifest');
    expect(manifest.json.permissions.map((permission) => permission.id)).not.toContain('sql-one:use');
    expect(
      await call('PATCH', `/roles/${carrier.json.role.id}`, {
        description: 'kept',
        permissions: ['sql-one:use', 'queue:read'],
      }),
    ).toMatchObject({ status: 200, json: { role: { permissions: ['queue:read', 'sql-one:use'] } } });
    expect(await call('POST', '/plugins/sql-one/uninstall', { password })).toMatchObject({
      json: { state: 'UNINSTALLED' },
    });
    expect(await call('POST', '/plugins/sql-one/purge', { password })).toMatchObject({ status: 200 });
    const { prisma } = secured.runtime;
    expect(await prisma.$queryRaw`SELECT 1 FROM pg_namespace WHERE nspname = 'plugin_sql_one'`).toEqual([]);
    expect(
      await prisma.$queryRaw`SELECT 1 FROM pg_roles WHERE rolname = 'flotilla_plugin_sql_one_' || left(md5(current_database()), 8)`,
    ).toEqual([]);
    expect(await prisma.pluginArchive.count({ where: { pluginId: 'sql-one' } })).toBe(0);
    expect(await call('GET', '/plugins/sql-one')).toMatchObject({ status: 404 });
    // Purged, nothing of it is left in the roles either.
    expect(await call('GET', `/roles/${carrier.json.role.id}`)).toMatchObject({
      json: { permissions: ['queue:read'] },
    });
  });

  it('start in safe mode after three unclean boots, with every plugin off and the reason given', async () => {
    const instanceId = 'plugins-safe-mode';
    for (let boot = 0; boot < 3; boot++) await recordBoot(secured.runtime.prisma, instanceId);
    const environment = {
      DATABASE_URL: secured.databaseUrl,
      FLOTILLA_INSTANCE_ID: instanceId,
      FLOTILLA_DATA_DIR: dataDir,
    };
    const runtime = await openWebRuntime(environment);
    try {
      const rest = servingWithGateway(runtime);
      const admin = await signIn(rest, 'http://127.0.0.1', TEST_ADMIN);
      const listed = await callRest<{
        safeMode: { safeMode: boolean; reason: string };
        items: { runningHere: unknown }[];
      }>(rest, auth, 'GET', '/plugins');
      expect(listed.json.safeMode).toMatchObject({ safeMode: true });
      expect(listed.json.safeMode.reason).toMatch(/did not end cleanly/);
      expect(listed.json.items.every((item) => item.runningHere === null)).toBe(true);
      expect(await callRest(rest, admin, 'GET', '/p/naming-policy/check?name=a.b')).toMatchObject({ status: 404 });
      expect(await callRest(rest, admin, 'POST', '/plugins/safe-mode/leave', { password })).toMatchObject({
        status: 200,
        json: { instances: 1 },
      });
      await eventually(
        'the plugins started once safe mode is left',
        async () => (await callRest(rest, admin, 'GET', '/p/naming-policy/check?name=A')).status === 200 || undefined,
        20_000,
      );
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
