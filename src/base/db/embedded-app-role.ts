// The embedded PostgreSQL's own role for Flotilla: the cluster is created with a superuser (initdb's bootstrap
// role), which is kept for this bootstrap only; the web, worker and migrations connect as `flotilla_app`, a role
// that may log in and owns the `flotilla` database, nothing more (the recipe docs/security.md gives for your own
// PostgreSQL). A data folder made before this role existed is brought over on its next start: the database and
// every table, sequence, view, type, function and schema the superuser made in it pass to the app role.
import pg from 'pg';
import { pluginRoleFunctionSql } from './plugin-role-function.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('database');

export interface RoleCredentials {
  readonly user: string;
  readonly password: string;
}

export const APP_ROLE = 'flotilla_app';

const LIMITS = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'flotilla-database-setup' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes (or keeps in step) the app role and its database, as the superuser at `superuserBase`
 * (`postgresql://user:password@host:port`, no database). Idempotent: run at every start.
 */
export async function ensureAppRole(superuserBase: string, app: RoleCredentials, databaseName: string): Promise<void> {
  const role = pg.escapeIdentifier(app.user);
  const owner = await withClient(`${superuserBase}/postgres`, async (client) => {
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [app.user]);
    // The password is hashed by the server (scram-sha-256); the statement itself is never logged by default.
    const verb = exists.rowCount === 0 ? 'CREATE' : 'ALTER';
    await client.query(`${verb} ROLE ${role} ${LIMITS} PASSWORD ${pg.escapeLiteral(app.password)}`);
    const database = await client.query<{ owner: string }>(
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [databaseName],
    );
    if (database.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(databaseName)} OWNER ${role}`);
      return app.user;
    }
    return database.rows[0]?.owner;
  });
  if (owner !== app.user) await handOver(superuserBase, app.user, databaseName, owner);
  // Every start, after any hand-over (which would give the function away): new to an older data folder, and
  // CREATE OR REPLACE keeps it current.
  await withClient(`${superuserBase}/${databaseName}`, (client) => client.query(pluginRoleFunctionSql(app.user)));
}

async function handOver(superuserBase: string, appUser: string, databaseName: string, owner: string | undefined) {
  const role = pg.escapeIdentifier(appUser);
  log.info({ database: databaseName, from: owner, role: appUser }, 'handing the database over to the application role');
  await withClient(`${superuserBase}/${databaseName}`, async (client) => {
    await client.query('BEGIN');
    await client.query(`ALTER DATABASE ${pg.escapeIdentifier(databaseName)} OWNER TO ${role}`);
    const statements = await client.query<{ sql: string }>(TRANSFERS, [appUser]);
    for (const { sql } of statements.rows) await client.query(sql);
    await client.query('COMMIT');
  });
}

/**
 * One `ALTER … OWNER TO` per object the connected superuser owns outside the system schemas. Left out: objects
 * that move with another (a table's indexes, owned sequences, row types, array types) and members of extensions;
 * a table's partitions are transferred one by one (ALTER TABLE on the parent does not reach them).
 */
const TRANSFERS = `
  WITH me AS (SELECT oid FROM pg_roles WHERE rolname = current_user),
  user_schemas AS (
    SELECT oid, nspname FROM pg_namespace
     WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'
  ),
  in_extension AS (SELECT objid FROM pg_depend WHERE deptype = 'e')
  SELECT format('ALTER SCHEMA %I OWNER TO %I', s.nspname, $1::text) AS sql
    FROM user_schemas s JOIN pg_namespace n ON n.oid = s.oid
   WHERE n.nspowner = (SELECT oid FROM me)
  UNION ALL
  SELECT format('ALTER %s %s OWNER TO %I',
           CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                          WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
           c.oid::regclass, $1::text)
    FROM pg_class c
   WHERE c.relowner = (SELECT oid FROM me) AND c.relnamespace IN (SELECT oid FROM user_schemas)
     AND c.relkind IN ('r', 'p', 'S', 'v', 'm', 'f') AND c.oid NOT IN (SELECT objid FROM in_extension)
     -- A partition depends on its parent like an owned sequence does, but does not move with it: it goes itself.
     AND (c.relispartition OR NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                        AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> c.oid
                        AND d.deptype IN ('a', 'i')))
  UNION ALL
  SELECT format('ALTER TYPE %s OWNER TO %I', t.oid::regtype, $1::text)
    FROM pg_type t
   WHERE t.typowner = (SELECT oid FROM me) AND t.typnamespace IN (SELECT oid FROM user_schemas)
     AND t.typtype IN ('e', 'd', 'r') AND t.oid NOT IN (SELECT objid FROM in_extension)
  UNION ALL
  SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, $1::text)
    FROM pg_proc p
   WHERE p.proowner = (SELECT oid FROM me) AND p.pronamespace IN (SELECT oid FROM user_schemas)
     AND p.oid NOT IN (SELECT objid FROM in_extension)`;
