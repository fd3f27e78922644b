// A fresh, migrated database per test file on the real PostgreSQL server, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { recordSweep, sweepDatabase } from './secret-sweep.ts';

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Where databases are made: the run's server and migrated template (postgres-global-setup.ts). */
export interface DatabaseServer {
  readonly adminDatabaseUrl: string;
  readonly migratedTemplate: string;
}

const injectedServer = (): DatabaseServer => ({
  adminDatabaseUrl: inject('adminDatabaseUrl'),
  migratedTemplate: inject('migratedTemplate'),
});

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `server` is for a global set-up, where `inject` does not answer (shared-console-global-setup.ts); a test file
 * leaves it out.
 */
export async function createTestDatabase(
  options: { migrate?: boolean; server?: DatabaseServer } = {},
): Promise<TestDatabase> {
  const name = `flotilla_test_${randomBytes(6).toString('hex')}`;
  const migrated = options.migrate ?? true;
  const server = options.server ?? injectedServer();
  // A migrated database is a copy of the run's migrated template (postgres-global-setup.ts); an empty one, template0.
  const template = migrated ? server.migratedTemplate : 'template0';
  await admin(server.adminDatabaseUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = withDatabase(server.adminDatabaseUrl, name);
  return {
    url,
    name,
    drop: async () => {
      await sweepSafely(url, name);
      await admin(server.adminDatabaseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The secret sweep of a database before it goes (secret-sweep.ts); one that cannot run says so and drops anyway. */
async function sweepSafely(url: string, name: string): Promise<void> {
  try {
    await sweepDatabase(async (sql, values) => ({ rows: await queryDatabase(url, sql, values) }), name);
  } catch (error) {
    recordSweep(`database ${name}, not searched: ${(error as Error).message}`, 0, []);
  }
}

/** Runs one query on its own connection: for tests that inspect a database the app under test owns. */
export async function queryDatabase<Row extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
