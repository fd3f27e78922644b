// The migration runner against a real PostgreSQL: it must record history exactly as `prisma migrate deploy`
// does, apply each migration once even when processes start together, and leave nothing half-done on failure.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, migrate, readMigrations } from '../../src/base/db/migrate.ts';
import { createTestDatabase, type TestDatabase, queryDatabase } from '@test/database.ts';

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}

const databases: TestDatabase[] = [];
const directories: string[] = [];
const quiet = { log: () => undefined };

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase({ migrate: false });
  databases.push(database);
  return database;
}

const history = (url: string) =>
  queryDatabase<HistoryRow>(
    url,
    'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY started_at, migration_name',
  );

const tableExists = async (url: string, table: string) =>
  (await queryDatabase<{ found: string | null }>(url, `SELECT to_regclass('public.${table}')::text AS found`))[0]
    ?.found === table;

/** A migrations directory of its own, as `prisma/migrations` lays it out. */
async function migrationsDirectory(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'flotilla-migrations-'));
  directories.push(directory);
  for (const [name, sql] of Object.entries(files)) await writeMigration(directory, name, sql);
  return directory;
}

async function writeMigration(directory: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(directory, name), { recursive: true });
  await writeFile(path.join(directory, name, 'migration.sql'), sql);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe('migrate', () => {
  it('applies every migration to an empty database and records each as prisma migrate deploy does', async () => {
    const database = await emptyDatabase();
    const names = (await readMigrations()).map((migration) => migration.name);
    expect(names.length).toBeGreaterThan(0);

    const result = await migrate(database.url, quiet);

    expect(result).toEqual({ applied: names, alreadyApplied: [] });
    const rows = await history(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      // The checksum is the SHA-256 of the file's bytes, which is what Prisma compares on deploy.
      const file = await readFile(path.join(DEFAULT_MIGRATIONS_DIR, row.migration_name, 'migration.sql'), 'utf8');
      expect(row).toMatchObject({ checksum: sha256(file), applied_steps_count: 1, rolled_back_at: null, logs: null });
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    for (const table of ['flotilla_setting', 'audit_event', 'job_status'])
      expect(await tableExists(database.url, table)).toBe(true);

    // A second start finds nothing to do.
    const again = await migrate(database.url, quiet);
    expect(again).toEqual({ applied: [], alreadyApplied: names });
    expect(await history(database.url)).toHaveLength(names.length);
  });

  it('applies each migration exactly once when two processes migrate at the same moment', async () => {
    const database = await emptyDatabase();
    const names = (await readMigrations()).map((migration) => migration.name);

    const results = await Promise.all([migrate(database.url, quiet), migrate(database.url, quiet)]);

    // The advisory lock makes one of them do all the work and the other find it done.
    expect(results.flatMap((result) => result.applied).sort()).toEqual(names);
    expect(results.map((result) => result.applied.length).sort()).toEqual([0, names.length]);
    const rows = await history(database.url);
    expect(rows.map((row) => row.migration_name).sort()).toEqual(names);
    expect(rows.every((row) => row.finished_at !== null && row.rolled_back_at === null)).toBe(true);
  });

  it('rolls a failing migration back, records it as rolled back, and applies the corrected file next time', async () => {
    const database = await emptyDatabase();
    const good = '20990101000000_good';
    const bad = '20990102000000_bad';
    const broken = 'CREATE TABLE partial_table (id INT);\nINSERT INTO no_such_table VALUES (1);\n';
    const directory = await migrationsDirectory({ [good]: 'CREATE TABLE good_table (id INT);\n', [bad]: broken });

    const failed = migrate(database.url, { ...quiet, directory });

    await expect(failed).rejects.toThrow(`Migration ${bad} failed: relation "no_such_table" does not exist`);
    // The migrations before it stay applied; nothing of the failed one is left behind.
    expect(await tableExists(database.url, 'good_table')).toBe(true);
    expect(await tableExists(database.url, 'partial_table')).toBe(false);
    const [goodRow, badRow] = await history(database.url);
    expect(goodRow).toMatchObject({ migration_name: good, applied_steps_count: 1 });
    expect(goodRow?.finished_at).toBeInstanceOf(Date);
    expect(badRow).toMatchObject({
      migration_name: bad,
      checksum: sha256(broken),
      finished_at: null,
      applied_steps_count: 0,
    });
    expect(badRow?.rolled_back_at).toBeInstanceOf(Date);
    expect(badRow?.logs).toContain('no_such_table');

    const corrected = 'CREATE TABLE partial_table (id INT);\n';
    await writeMigration(directory, bad, corrected);
    const retried = await migrate(database.url, { ...quiet, directory });

    expect(retried).toEqual({ applied: [bad], alreadyApplied: [good] });
    expect(await tableExists(database.url, 'partial_table')).toBe(true);
    const rows = await history(database.url);
    // The failed attempt stays in the history beside the successful one, as with Prisma.
    expect(rows.filter((row) => row.migration_name === bad)).toMatchObject([
      { checksum: sha256(broken), finished_at: null },
      { checksum: sha256(corrected), rolled_back_at: null, applied_steps_count: 1 },
    ]);
  });

  it('refuses to go on after a failed migration that ran outside a transaction, until it is resolved by hand', async () => {
    const database = await emptyDatabase();
    const name = '20990101000000_concurrent_index';
    // Outside a transaction nothing is rolled back, so the runner cannot know what is left: it must stop.
    const directory = await migrationsDirectory({
      [name]: '-- flotilla:no-transaction\nCREATE INDEX CONCURRENTLY missing_index ON no_such_table (id);\n',
    });

    await expect(migrate(database.url, { ...quiet, directory })).rejects.toThrow(
      `Migration ${name} failed: relation "no_such_table" does not exist`,
    );
    expect(await history(database.url)).toMatchObject([
      { migration_name: name, finished_at: null, rolled_back_at: null },
    ]);

    await expect(migrate(database.url, { ...quiet, directory })).rejects.toThrow(
      `Migration ${name} failed earlier and was not resolved`,
    );
  });

  it('warns when an applied migration file was changed afterwards, and does not run it again', async () => {
    const database = await emptyDatabase();
    const name = '20990101000000_table';
    const directory = await migrationsDirectory({ [name]: 'CREATE TABLE edited_table (id INT);\n' });
    await migrate(database.url, { ...quiet, directory });
    await writeMigration(directory, name, 'CREATE TABLE edited_table (id INT, extra TEXT);\n');
    const lines: string[] = [];

    const result = await migrate(database.url, { directory, log: (line) => lines.push(line) });

    expect(result).toEqual({ applied: [], alreadyApplied: [name] });
    expect(lines).toEqual([`[migrate] warning: ${name} changed after it was applied`]);
  });
});
