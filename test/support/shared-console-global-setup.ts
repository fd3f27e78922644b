// One Flotilla for the browser files that need "a console" rather than "a console of my own" (ADR 37), as the shared
// brokers are for the broker files. It is started as `npm start` does, on a fresh database, when the first such file
// asks for it (not at the run's start: the broker and database groups come first and would leave it idle), and stopped
// at the run's end, its output and database searched by the secret sweep as every app's are. A file asks by creating
// `wanted` in the folder this provides and reads `ready` (the app's address and database) or `failed` (why) there;
// browser.ts's openSharedConsole does both. Files started this way name what they make after themselves and assert only
// on it: other files use the same console at the same time.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { AppPool, type AppProcess } from './app-process.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { TEST_ADMIN_ENV } from './sign-in.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the shared console's hand-shake: `wanted`, then `ready` or `failed`. */
    sharedConsoleDir: string;
  }
}

/** What a file reads from `ready`. */
export interface SharedConsoleAddress {
  readonly baseUrl: string;
  readonly databaseUrl: string;
  /** The console's standard output as it goes, for a file's diagnosis of a failure (its log lines). */
  readonly outputFile: string;
}

const ASKED_EVERY_MS = 250;
// The console's output outlives the run here (git-ignored, like the screenshots): a file's failure quotes a request id,
// and its server-side error is in these lines (a removal's 500 on 2026-12-07 could only be explained without them from
// PostgreSQL's own log). The run's secret sweep has read every line of it.
const KEPT_OUTPUT = path.resolve(import.meta.dirname, '../../test-results/shared-console.log');

let folder: string | undefined;
let watcher: NodeJS.Timeout | undefined;
let started: Promise<void> | undefined;
let pool: AppPool | undefined;
let database: TestDatabase | undefined;

function write(into: string, name: 'ready' | 'failed', text: string): void {
  try {
    writeFileSync(path.join(into, name), text);
  } catch {
    // the run is over and the folder gone
  }
}

async function start(project: TestProject, into: string): Promise<void> {
  const provided = project.getProvidedContext();
  try {
    database = await createTestDatabase({ server: provided });
    pool = new AppPool(provided.buildOutcomeFile);
    const app: AppProcess = await pool.startReady({ env: { DATABASE_URL: database.url, ...TEST_ADMIN_ENV } });
    const outputFile = path.join(into, 'output.log');
    writeFileSync(outputFile, app.stdout());
    app.child.stdout?.on('data', (chunk: string) => {
      try {
        appendFileSync(outputFile, chunk);
      } catch {
        // the run is over and the folder gone
      }
    });
    const address: SharedConsoleAddress = { baseUrl: app.baseUrl, databaseUrl: database.url, outputFile };
    write(into, 'ready', JSON.stringify(address));
    // A console that dies under the files says so to the files that ask after it.
    void app.exited.then((exit) => write(into, 'failed', `the shared console exited: ${JSON.stringify(exit)}`));
  } catch (error) {
    write(into, 'failed', `the shared console did not start: ${(error as Error).message}`);
  }
}

export function setup(project: TestProject): void {
  folder = mkdtempSync(path.join(tmpdir(), 'flotilla-shared-console-'));
  const into = folder;
  project.provide('sharedConsoleDir', into);
  watcher = setInterval(() => {
    if (started || !existsSync(path.join(into, 'wanted'))) return;
    clearInterval(watcher);
    started = start(project, into);
  }, ASKED_EVERY_MS);
  watcher.unref();
}

export async function teardown(): Promise<void> {
  clearInterval(watcher);
  await started;
  await pool?.destroyAll();
  await database?.drop();
  if (!folder) return;
  const output = path.join(folder, 'output.log');
  if (existsSync(output)) {
    mkdirSync(path.dirname(KEPT_OUTPUT), { recursive: true });
    copyFileSync(output, KEPT_OUTPUT);
  }
  rmSync(folder, { recursive: true, force: true });
}
