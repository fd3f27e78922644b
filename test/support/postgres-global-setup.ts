// Gives every integration and e2e test a real PostgreSQL server to create its own databases in: the machine's
// server (FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432) or, when none answers, an embedded one. It also
// migrates one template database per project and run: a file's migrated database is a copy of it (about 0.2 s)
// rather than a migration of its own (about 0.7 s, 200 times a run). migrate.int and the e2e smoke test still
// migrate empty databases, as `npm start` does.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/base/db/embedded-postgres.ts';
import { migrate } from '../../src/base/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    migratedTemplate: string;
  }
}

const MACHINE_SERVER = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

let embedded: EmbeddedDatabase | undefined;
let embeddedDir: string | undefined;
let runnerBeforeExitListeners: NodeJS.BeforeExitListener[] = [];

let template: { adminUrl: string; name: string } | undefined;

async function onAdminConnection(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function startServer(): Promise<string> {
  if (await answers(MACHINE_SERVER)) return MACHINE_SERVER;
  console.warn(`[tests] no PostgreSQL at ${MACHINE_SERVER}; starting an embedded one`);
  embeddedDir = await mkdtemp(path.join(tmpdir(), 'flotilla-test-pg-'));
  runnerBeforeExitListeners = process.listeners('beforeExit');
  embedded = await startEmbeddedPostgres(embeddedDir);
  return embedded.superuserUrl;
}

export async function setup(project: TestProject): Promise<void> {
  const adminUrl = await startServer();
  project.provide('adminDatabaseUrl', adminUrl);
  const name = `flotilla_test_template_${randomBytes(6).toString('hex')}`;
  await onAdminConnection(adminUrl, `CREATE DATABASE ${name} TEMPLATE template0`);
  template = { adminUrl, name };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString(), { log: () => undefined });
  project.provide('migratedTemplate', name);
}

export async function teardown(): Promise<void> {
  if (template) await onAdminConnection(template.adminUrl, `DROP DATABASE IF EXISTS ${template.name} WITH (FORCE)`);
  await embedded?.stop();
  if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
  // The embedded-postgres package exits the process with code 0 on `beforeExit` (async-exit-hook); with the server
  // stopped, that hook must go, or a failed run would report success.
  if (embedded) {
    for (const listener of process.listeners('beforeExit')) {
      if (!runnerBeforeExitListeners.includes(listener)) process.removeListener('beforeExit', listener);
    }
  }
}
