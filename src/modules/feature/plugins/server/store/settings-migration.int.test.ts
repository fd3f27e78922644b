// The migration that moved plugin settings into the settings store, on a real PostgreSQL: a database migrated up to
// just before it, holding plugin rows with values an admin set, is migrated on; each value is then a
// flotilla_setting row `runtime:<key>` (who changed the plugin last kept), and the plugin row's settings column is gone.
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, migrate } from '@/base/db/migrate.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';

const MOVE = '20261206012000_plugin_settings_store';
const quiet = { log: () => undefined };
let database: TestDatabase | undefined;
let before: string | undefined;

afterAll(async () => {
  await database?.drop();
  if (before) await rm(before, { recursive: true, force: true });
});

describe('the plugin settings migration', () => {
  it('copies every value set in a plugin row into flotilla_setting and drops the column', async () => {
    database = await createTestDatabase({ migrate: false });
    before = await mkdtemp(path.join(tmpdir(), 'flotilla-before-settings-move-'));
    for (const name of (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((entry) => /^\d{14}_/.test(entry)).sort())
      if (name < MOVE) await cp(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    await migrate(database.url, { ...quiet, directory: before });
    await queryDatabase(
      database.url,
      `INSERT INTO plugin (id, state, version, settings, updated_by, updated_at) VALUES
        ('naming-policy', 'ACTIVE', '1.0.0', '{"naming-policy.pattern": "^[A-Z]+$", "naming-policy.strict": true}', 'ann', '2026-12-01T10:00:00Z'),
        ('quiet-one', 'DISABLED', '1.0.0', '{}', 'bob', '2026-12-01T11:00:00Z')`,
    );

    const result = await migrate(database.url, quiet);
    expect(result.applied).toContain(MOVE);
    const rows = await queryDatabase<{ key: string; value: unknown; scope: string; updated_by: string }>(
      database.url,
      `SELECT key, value, scope, updated_by FROM flotilla_setting WHERE key LIKE 'runtime:%' ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'runtime:naming-policy.pattern', value: '^[A-Z]+$', scope: 'RUNTIME', updated_by: 'ann' },
      { key: 'runtime:naming-policy.strict', value: true, scope: 'RUNTIME', updated_by: 'ann' },
    ]);
    const columns = await queryDatabase<{ column_name: string }>(
      database.url,
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'plugin' AND column_name = 'settings'`,
    );
    expect(columns).toEqual([]);
  });
});
