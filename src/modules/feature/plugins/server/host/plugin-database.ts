// A plugin's own corner of the database: a login role of its own that owns schema plugin_<id> and nothing else, its
// migrations run as that role, and a small pool connected as it. PostgreSQL itself then keeps a plugin out of the
// host's tables and out of every other plugin's schema (no grant reaches them), whatever SQL it sends; the host never
// runs a plugin's SQL on its own connections. The role's password is made here, sealed by the vault in the plugin's
// row, and opened by every instance that runs the plugin. Needs a database user allowed to create roles (CREATEROLE).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PrismaClient } from '@/base/db/database.ts';
import { openSecret, processKeys, sealSecret, type Sealed } from '@/modules/platform/governance/index.ts';
import { PLUGIN_ROLE_FUNCTION, pluginRoleNameSql } from '@/base/db/plugin-role-function.ts';
import { sha256Of } from '../store/plugin-store.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('plugins');

const POOL_SIZE = 2;
const STATEMENT_TIMEOUT = '5s';

/** plugin ids are `[a-z][a-z0-9-]*`: the database names replace the dash, so they never need quoting. */
const schemaOf = (pluginId: string) => `plugin_${pluginId.replaceAll('-', '_')}`;

/** The role's name, which carries this database's (plugin-role-function.ts says why). */
async function roleOf(prisma: PrismaClient, pluginId: string): Promise<string> {
  const [row] = await prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT ${pluginRoleNameSql('$1::text')} AS name`,
    pluginId,
  );
  if (!row) throw new Error('PostgreSQL answered no role name');
  return row.name;
}

function assertSafeId(pluginId: string): void {
  if (!/^[a-z][a-z0-9-]{2,31}$/.test(pluginId)) throw new Error(`not a plugin id: ${pluginId}`);
}

const bindingOf = (pluginId: string) => `plugin:${pluginId}:db`;

const hasRoleFunction = async (prisma: PrismaClient) =>
  (
    await prisma.$queryRawUnsafe<{ present: boolean }[]>(
      `SELECT to_regprocedure('public.${PLUGIN_ROLE_FUNCTION}(text, text, text)') IS NOT NULL AS present`,
    )
  )[0]?.present === true;

class EarlierRoleFunction extends Error {
  constructor() {
    super(
      `the ${PLUGIN_ROLE_FUNCTION} function in this database is from an earlier version of Flotilla: install it again as a superuser (docs/security.md, "Database role")`,
    );
  }
}

/** Runs the superuser-made function; it answers the role it made or dropped (an earlier version answered nothing). */
async function callRoleFunction(prisma: PrismaClient, role: string, ...args: string[]): Promise<void> {
  const placeholders = args.map((_, index) => `$${index + 1}`).join(', ');
  const [answer] = await prisma.$queryRawUnsafe<{ role: string | null }[]>(
    `SELECT public.${PLUGIN_ROLE_FUNCTION}(${placeholders}) AS role`,
    ...args,
  );
  if (answer?.role !== role) throw new EarlierRoleFunction();
}

const cannotMakeRoles = (cause: unknown) =>
  new Error(
    `the database user may not make the plugin's own role: install the ${PLUGIN_ROLE_FUNCTION} function as a superuser (docs/security.md, "Database role") or give plugins no migrations`,
    { cause },
  );

/** Makes (or re-keys) the role and its schema; answers the role and the password to connect with. */
async function ensureRoleAndSchema(
  prisma: PrismaClient,
  pluginId: string,
): Promise<{ role: string; password: string }> {
  assertSafeId(pluginId);
  const row = await prisma.plugin.findUniqueOrThrow({ where: { id: pluginId }, select: { dbPassword: true } });
  const role = await roleOf(prisma, pluginId);
  const exists =
    (await prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_roles WHERE rolname = $1`, role)).length > 0;
  if (exists && row.dbPassword)
    return {
      role,
      password: openSecret(processKeys(), row.dbPassword as unknown as Sealed, bindingOf(pluginId)).toString('utf8'),
    };
  const password = randomBytes(24).toString('base64url');
  try {
    // The narrow, superuser-made function where it is installed (the embedded database has it); else the statements
    // themselves, which need CREATEROLE.
    if (await hasRoleFunction(prisma)) await callRoleFunction(prisma, role, 'ensure', pluginId, password);
    else
      for (const statement of roleStatements(role, pluginId, exists, password))
        await prisma.$executeRawUnsafe(statement);
  } catch (error) {
    throw error instanceof EarlierRoleFunction ? error : cannotMakeRoles(error);
  }
  await prisma.plugin.update({
    where: { id: pluginId },
    data: { dbPassword: { ...sealSecret(processKeys(), password, bindingOf(pluginId)) } },
  });
  return { role, password };
}

function roleStatements(role: string, pluginId: string, exists: boolean, password: string): string[] {
  const schema = schemaOf(pluginId);
  return [
    exists
      ? `ALTER ROLE ${role} LOGIN PASSWORD '${password}'`
      : `CREATE ROLE ${role} LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION CONNECTION LIMIT 8`,
    `ALTER ROLE ${role} SET search_path = ${schema}`,
    `ALTER ROLE ${role} SET statement_timeout = '${STATEMENT_TIMEOUT}'`,
    `CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role}`,
  ];
}

export interface PluginDatabase {
  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
  close(): Promise<void>;
}

function connectionFor(databaseUrl: string, pluginId: string, role: string, password: string): pg.PoolConfig {
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return { connectionString: url.toString(), max: POOL_SIZE, application_name: `flotilla-plugin-${pluginId}` };
}

/**
 * Opens the plugin's database: the role and schema made when missing, its migrations (already checked as plain DDL
 * by the validation) run once each, in name order, as its own role; then its pool.
 */
export async function openPluginDatabase(
  prisma: PrismaClient,
  databaseUrl: string,
  pluginId: string,
  migrations: ReadonlyMap<string, Uint8Array>,
): Promise<PluginDatabase> {
  const { role, password } = await ensureRoleAndSchema(prisma, pluginId);
  const pool = new pg.Pool(connectionFor(databaseUrl, pluginId, role, password));
  pool.on('error', (error) =>
    log.warn({ err: error, plugin: pluginId }, 'an idle connection of the plugin database pool failed'),
  );
  try {
    const applied = new Set(
      (await prisma.pluginMigration.findMany({ where: { pluginId }, select: { name: true } })).map((row) => row.name),
    );
    for (const [name, bytes] of [...migrations].sort(([a], [b]) => a.localeCompare(b))) {
      if (applied.has(name)) continue;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(Buffer.from(bytes).toString('utf8'));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      } finally {
        client.release();
      }
      await prisma.pluginMigration.create({
        data: { pluginId, name, sha256: sha256Of(bytes), appliedAt: new Date() },
      });
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    // One statement per call, on the extended protocol (pg refuses several statements there).
    query: async (sql, params) => {
      const result = await pool.query({ text: sql, values: [...params], queryMode: 'extended' } as pg.QueryConfig);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
    close: () => pool.end(),
  };
}

/** Purge: the schema with everything in it, the role, and the record of its migrations. */
export async function dropPluginDatabase(prisma: PrismaClient, pluginId: string): Promise<void> {
  assertSafeId(pluginId);
  const role = await roleOf(prisma, pluginId);
  if (await hasRoleFunction(prisma)) {
    await callRoleFunction(prisma, role, 'drop', pluginId);
  } else {
    await prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS ${schemaOf(pluginId)} CASCADE`);
    const exists =
      (await prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_roles WHERE rolname = $1`, role)).length > 0;
    if (exists) {
      // Its sessions first: a role with connections cannot be dropped.
      await prisma.$queryRawUnsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, role);
      await prisma.$executeRawUnsafe(`DROP OWNED BY ${role}`);
      await prisma.$executeRawUnsafe(`DROP ROLE ${role}`);
    }
  }
  await prisma.pluginMigration.deleteMany({ where: { pluginId } });
}
