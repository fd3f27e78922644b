// Audit rows left PENDING by a version before ADR 35 (no owner, so the interrupted sweep cannot judge them) are
// finished as INTERRUPTED once, by the migration that follows that version; a row with an owner is the sweep's and
// stays PENDING, and a finished row is left as it was.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, readMigrations } from '@/base/db/migrate.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';

const THE_MIGRATION = '20261206090000_audit_unowned_pending';
let database: TestDatabase;
let directory: string;

/** Every migration up to `last` (inclusive), in a folder of its own. */
async function migrationsUpTo(last: string): Promise<void> {
  for (const { name, sql } of (await readMigrations()).filter((migration) => migration.name <= last)) {
    await mkdir(path.join(directory, name), { recursive: true });
    await writeFile(path.join(directory, name, 'migration.sql'), sql);
  }
}

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  directory = await mkdtemp(path.join(tmpdir(), 'flotilla-audit-migrations-'));
});

afterAll(async () => {
  await database.drop();
  await rm(directory, { recursive: true, force: true });
});

it('finishes an earlier version’s PENDING rows as INTERRUPTED at the upgrade, and only those', async () => {
  const before = (await readMigrations()).map((migration) => migration.name).filter((name) => name < THE_MIGRATION);
  await migrationsUpTo(before.at(-1) ?? '');
  await migrate(database.url, { directory, log: () => undefined });
  const row = (outcome: string, owner: string | null, nodeDetail: unknown = null) => ({
    id: randomUUID(),
    outcome,
    owner,
    nodeDetail,
  });
  const rows = [
    row('PENDING', null, { nodes: [{ nodeName: 'node-a', outcome: 'APPLIED', count: 3 }] }),
    row('PENDING', 'a-live-boot-id'),
    row('SUCCEEDED', null),
  ];
  for (const { id, outcome, owner, nodeDetail } of rows)
    await queryDatabase(
      database.url,
      `INSERT INTO audit_event (id, actor, request_id, action, outcome, owner, node_detail, started_at, finished_at)
       VALUES ($1, 'admin', 'r-1', 'queue.purge', $2, $3, $4::jsonb, now(), CASE WHEN $2 = 'PENDING' THEN NULL ELSE now() END)`,
      [id, outcome, owner, JSON.stringify(nodeDetail)],
    );

  await migrationsUpTo(THE_MIGRATION);
  expect((await migrate(database.url, { directory, log: () => undefined })).applied).toEqual([THE_MIGRATION]);
  const after = await queryDatabase<{
    id: string;
    outcome: string;
    error: string | null;
    finished: boolean;
    nodes: unknown;
  }>(
    database.url,
    'SELECT id, outcome, error, finished_at IS NOT NULL AS finished, node_detail AS nodes FROM audit_event',
  );
  const byId = new Map(after.map((one) => [one.id, one]));
  expect(byId.get(rows[0]?.id ?? '')).toEqual({
    id: rows[0]?.id,
    outcome: 'INTERRUPTED',
    error: byId.get(rows[0]?.id ?? '')?.error,
    finished: true,
    nodes: { nodes: [{ nodeName: 'node-a', outcome: 'APPLIED', count: 3 }] },
  });
  expect(byId.get(rows[0]?.id ?? '')?.error).toMatch(
    /^the process running it ended before it finished \(it was opened/,
  );
  expect(byId.get(rows[1]?.id ?? '')).toMatchObject({ outcome: 'PENDING', finished: false });
  expect(byId.get(rows[2]?.id ?? '')).toMatchObject({ outcome: 'SUCCEEDED', error: null });
});
