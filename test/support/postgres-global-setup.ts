// Gives every integration and e2e test a real PostgreSQL server to create its own databases in: the machine's
// server (FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432) or, when none answers, an embedded one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/base/db/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
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

export async function setup(project: TestProject): Promise<void> {
  if (await answers(MACHINE_SERVER)) {
    project.provide('adminDatabaseUrl', MACHINE_SERVER);
    return;
  }
  console.warn(`[tests] no PostgreSQL at ${MACHINE_SERVER}; starting an embedded one`);
  embeddedDir = await mkdtemp(path.join(tmpdir(), 'flotilla-test-pg-'));
  runnerBeforeExitListeners = process.listeners('beforeExit');
  embedded = await startEmbeddedPostgres(embeddedDir);
  project.provide('adminDatabaseUrl', embedded.superuserUrl);
}

export async function teardown(): Promise<void> {
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
