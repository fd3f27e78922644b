// Flotilla needs no superuser: a role that may log in and owns its database (no SUPERUSER, CREATEDB or CREATEROLE)
// migrates it, serves requests, listens and notifies on the bus, keeps the audit and maintains metric partitions.
// docs/security.md ("Database role") gives the same recipe for a production PostgreSQL.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { migrate } from '../../src/base/db/migrate.ts';
import { makePartitionsAhead } from '../../src/modules/platform/scrape/server/partition-maintenance.ts';
import type { WebRuntime } from '../../src/server/runtime/web-runtime.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';

const suffix = randomBytes(5).toString('hex');
const role = `flotilla_app_${suffix}`;
const database = `flotilla_lp_${suffix}`;
const password = randomBytes(18).toString('base64url');
let url: string;
let secured: SecuredRuntime | undefined;
let runtime: WebRuntime | undefined;

async function asAdmin(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await asAdmin(`CREATE ROLE ${role} LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
  await asAdmin(`CREATE DATABASE ${database} OWNER ${role} TEMPLATE template0`);
  const parsed = new URL(inject('adminDatabaseUrl'));
  parsed.username = role;
  parsed.password = password;
  parsed.pathname = `/${database}`;
  url = parsed.toString();
});

afterAll(async () => {
  await secured?.close();
  await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await asAdmin(`DROP ROLE IF EXISTS ${role}`);
});

describe('a least-privilege database role', () => {
  it('is enough for everything Flotilla does with its database', async () => {
    const [flags] = (
      await asAdmin(`SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = '${role}'`)
    ).rows as { rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean }[];
    expect(flags).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false });

    await migrate(url, { log: () => undefined });
    secured = await openSecuredRuntime({ databaseUrl: url });
    ({ runtime } = secured);
    const { rest } = secured;
    const { auth: admin } = await secured.signedIn();
    const change = await rest(
      new Request('http://127.0.0.1/api/v1/settings/audit.retention', {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ value: '100d' }),
      }),
    );
    expect(change.status).toBe(200);
    // The change went out on the bus (NOTIFY) and came back to this process's store (LISTEN).
    await expect.poll(() => runtime?.settings.duration('audit.retention')).toBe(100 * 86_400_000);
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'setting.update' } })).toBe(1);
    const { pool } = runtime.db;
    const made = await makePartitionsAhead((sql) => pool.query(sql));
    expect(made.length).toBeGreaterThan(0);
  });
});
