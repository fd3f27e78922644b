// A plugin's own database role under a least-privilege Flotilla role (no CREATEROLE, as docs/security.md recommends
// and the embedded PostgreSQL sets up): without the superuser-made function a plugin with migrations is refused
// with what to do; with it, the plugin gets its role and schema, and purge takes them away — and the function makes
// nothing but plugin roles. A second installation on the same PostgreSQL server running the same plugin gets a role
// of its own, which the first one's purge leaves alone.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { migrate } from '@/base/db/migrate.ts';
import { pluginRoleFunctionSql } from '@/base/db/plugin-role-function.ts';
import { callRest, type RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { TEST_ADMIN } from '@test/sign-in.ts';
import { packPluginFolder } from '../pack/pack-folder.ts';

const suffix = randomBytes(5).toString('hex');
const role = `flotilla_app_${suffix}`;
const database = `flotilla_pl_${suffix}`;
const neighbour = `flotilla_pn_${suffix}`;
/** The plugin role's name in a database: it carries the database's (plugin-role-function.ts). */
const pluginRoleIn = (databaseName: string) =>
  `flotilla_plugin_naming_policy_${createHash('md5').update(databaseName).digest('hex').slice(0, 8)}`;
const rolePassword = randomBytes(18).toString('base64url');
const SAMPLE = path.resolve(import.meta.dirname, '../../../../../examples/plugins/naming-policy');
let secured: SecuredRuntime | undefined;
let dataDir: string;
let call: RestCall;

async function asAdmin(sql: string, databaseName?: string): Promise<pg.QueryResult> {
  const url = new URL(inject('adminDatabaseUrl'));
  if (databaseName) url.pathname = `/${databaseName}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await asAdmin(`CREATE ROLE ${role} LOGIN PASSWORD '${rolePassword}' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
  await asAdmin(`CREATE DATABASE ${database} OWNER ${role} TEMPLATE template0`);
  const url = new URL(inject('adminDatabaseUrl'));
  url.username = role;
  url.password = rolePassword;
  url.pathname = `/${database}`;
  await migrate(url.toString(), { log: () => undefined });
  await asAdmin(`CREATE DATABASE ${neighbour} TEMPLATE template0`);
  await asAdmin(pluginRoleFunctionSql(role), neighbour);
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-plugin-db-'));
  secured = await openSecuredRuntime({ databaseUrl: url.toString(), environment: { FLOTILLA_DATA_DIR: dataDir } });
  const { auth } = await secured.signedIn();
  const rest = secured.rest;
  call = (method, route, body) => callRest(rest, auth, method, route, body);
}, 60_000);

afterAll(async () => {
  await secured?.close();
  await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await asAdmin(`DROP DATABASE IF EXISTS ${neighbour} WITH (FORCE)`);
  await asAdmin(`DROP ROLE IF EXISTS ${pluginRoleIn(database)}`);
  await asAdmin(`DROP ROLE IF EXISTS ${pluginRoleIn(neighbour)}`);
  await asAdmin(`DROP ROLE IF EXISTS ${role}`);
  await rm(dataDir, { recursive: true, force: true });
});

describe('a plugin’s database role under a least-privilege Flotilla role', () => {
  it('is refused, saying what to do, until a superuser installs the function; then made and purged', async () => {
    const password = TEST_ADMIN.password;
    const archive = Buffer.from((await packPluginFolder(SAMPLE)).bytes).toString('base64');
    expect(await call('POST', '/plugins', { archive, password })).toMatchObject({ status: 200 });
    const refused = await call('POST', '/plugins/naming-policy/activate', { password });
    expect(refused).toMatchObject({ status: 422, json: { type: 'plugin-start-failed' } });
    expect(refused.json.detail).toMatch(/flotilla_plugin_role function/);

    await asAdmin(pluginRoleFunctionSql(role), database);
    expect(await call('POST', '/plugins/naming-policy/activate', { password })).toMatchObject({
      status: 200,
      json: { state: 'ACTIVE' },
    });
    const [made] = (
      await asAdmin(
        `SELECT r.rolsuper, r.rolcreaterole, r.rolcreatedb, n.nspname
           FROM pg_roles r JOIN pg_namespace n ON n.nspowner = r.oid
          WHERE r.rolname = '${pluginRoleIn(database)}'`,
        database,
      )
    ).rows as Record<string, unknown>[];
    expect(made).toEqual({
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      nspname: 'plugin_naming_policy',
    });
    // Flotilla's role can make plugin roles and nothing else through it.
    await expect(
      secured?.runtime.prisma.$executeRawUnsafe(`SELECT public.flotilla_plugin_role('ensure', 'Bad Id', 'x')`),
    ).rejects.toThrow(/not a plugin id/);

    // Another installation on this server (its own database, the function installed there too) runs the same plugin.
    const secret = randomBytes(18).toString('base64url');
    const ensured = await asAdmin(
      `SELECT public.flotilla_plugin_role('ensure', 'naming-policy', '${secret}') AS role`,
      neighbour,
    );
    expect(ensured.rows).toEqual([{ role: pluginRoleIn(neighbour) }]);
    expect(pluginRoleIn(neighbour)).not.toBe(pluginRoleIn(database));
    await asAdmin(
      `SET ROLE ${pluginRoleIn(neighbour)}; CREATE TABLE plugin_naming_policy.kept (id int); RESET ROLE`,
      neighbour,
    );

    expect(await call('POST', '/plugins/naming-policy/disable', { password })).toMatchObject({ status: 200 });
    expect(await call('POST', '/plugins/naming-policy/uninstall', { password })).toMatchObject({ status: 200 });
    expect(await call('POST', '/plugins/naming-policy/purge', { password })).toMatchObject({ status: 200 });
    const left = await asAdmin(`SELECT 1 FROM pg_roles WHERE rolname = '${pluginRoleIn(database)}'`, database);
    expect(left.rowCount).toBe(0);
    // The neighbour's role, schema and table are where they were.
    const kept = await asAdmin(
      `SELECT pg_get_userbyid(c.relowner) AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'plugin_naming_policy' AND c.relname = 'kept'`,
      neighbour,
    );
    expect(kept.rows).toEqual([{ owner: pluginRoleIn(neighbour) }]);
  }, 60_000);

  it('takes over the schema an earlier version made for a role named by the plugin alone, data kept', async () => {
    const legacy = `flotilla_plugin_naming_policy`;
    // The neighbour as the first test left it, less the plugin's role and schema.
    await asAdmin(`DROP SCHEMA IF EXISTS plugin_naming_policy CASCADE`, neighbour);
    await asAdmin(`DROP ROLE IF EXISTS ${pluginRoleIn(neighbour)}`);
    // What an earlier version left in a database: the schema and a table owned by the plugin-named role.
    await asAdmin(
      `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${legacy}') THEN CREATE ROLE ${legacy} LOGIN; END IF; END $$`,
    );
    try {
      await asAdmin(
        `CREATE SCHEMA plugin_naming_policy AUTHORIZATION ${legacy};
         CREATE TABLE plugin_naming_policy.names (name text); ALTER TABLE plugin_naming_policy.names OWNER TO ${legacy};
         INSERT INTO plugin_naming_policy.names VALUES ('orders')`,
        neighbour,
      );
      const secret = randomBytes(18).toString('base64url');
      await asAdmin(`SELECT public.flotilla_plugin_role('ensure', 'naming-policy', '${secret}')`, neighbour);
      const owners = await asAdmin(
        `SELECT pg_get_userbyid(n.nspowner) AS schema, pg_get_userbyid(c.relowner) AS "table",
                (SELECT count(*)::int FROM plugin_naming_policy.names) AS rows
           FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid
          WHERE n.nspname = 'plugin_naming_policy' AND c.relname = 'names'`,
        neighbour,
      );
      expect(owners.rows).toEqual([{ schema: pluginRoleIn(neighbour), table: pluginRoleIn(neighbour), rows: 1 }]);
    } finally {
      await asAdmin(`DROP SCHEMA IF EXISTS plugin_naming_policy CASCADE`, neighbour);
      await asAdmin(`DROP OWNED BY ${legacy}`, neighbour).catch(() => undefined);
      // Another database on this server may still hold objects of a role an earlier version made: then it stays.
      await asAdmin(`DROP ROLE IF EXISTS ${legacy}`).catch(() => undefined);
    }
  }, 60_000);
});
