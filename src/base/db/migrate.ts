// Applies prisma/migrations/<stamp>_<name>/migration.sql in order and records each in `_prisma_migrations`
// exactly as `prisma migrate deploy` does, so a machine with Prisma's native CLI sees the same history.
// Prisma's CLI cannot run here (no schema-engine download); see docs/architecture.md.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { lockSession, unlockSession } from '../advisory-lock.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('migrate');

export interface MigrationResult {
  readonly applied: string[];
  readonly alreadyApplied: string[];
}

export interface MigrationFile {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

// Same key in every process and instance: concurrent start-ups migrate one at a time.
const NO_TRANSACTION_MARKER = '-- flotilla:no-transaction';

export const DEFAULT_MIGRATIONS_DIR = path.resolve(process.cwd(), 'prisma', 'migrations');

const CREATE_HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export async function readMigrations(directory: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(directory, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export async function migrate(
  connectionString: string,
  options: { directory?: string; log?: (line: string) => void } = {},
): Promise<MigrationResult> {
  const note = (level: 'info' | 'warn', message: string, migration: string) => {
    if (options.log) options.log(`[migrate] ${level === 'warn' ? 'warning: ' : ''}${message}`);
    else log[level]({ migration }, message);
  };
  const migrations = await readMigrations(options.directory);
  const client = new pg.Client({ connectionString, application_name: 'flotilla-migrate' });
  await client.connect();
  try {
    await lockSession(client, 'migrations');
    await client.query(CREATE_HISTORY_TABLE);
    const history = (
      await client.query<HistoryRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
      )
    ).rows;
    const failed = history.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new Error(
        `Migration ${failed.migration_name} failed earlier and was not resolved. Fix the database by hand, then mark ` +
          `it rolled back (UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${failed.migration_name}').`,
      );
    }
    const done = new Map(
      history.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => [row.migration_name, row]),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous) {
        if (previous.checksum !== migration.checksum)
          note('warn', `${migration.name} changed after it was applied`, migration.name);
        continue;
      }
      await applyOne(client, migration);
      applied.push(migration.name);
      note('info', `applied ${migration.name}`, migration.name);
    }
    return { applied, alreadyApplied: [...done.keys()] };
  } finally {
    await unlockSession(client, 'migrations').catch(() => undefined);
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query(
    'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
    [id, migration.checksum, migration.name],
  );
  const inTransaction = !migration.sql.includes(NO_TRANSACTION_MARKER);
  try {
    if (inTransaction) await client.query('BEGIN');
    await client.query(migration.sql);
    await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
      id,
    ]);
    if (inTransaction) await client.query('COMMIT');
  } catch (error) {
    if (inTransaction) await client.query('ROLLBACK').catch(() => undefined);
    // A transactional migration left nothing behind, so it is recorded as rolled back and retried next time.
    await client.query(
      'UPDATE "_prisma_migrations" SET logs = $2, rolled_back_at = CASE WHEN $3 THEN now() END WHERE id = $1',
      [id, (error as Error).message, inTransaction],
    );
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
