// The browser and e2e suites run the production build, as `npm start` does. When it is missing or stale it is made
// here, in the background: the broker and integration groups run first (vitest.config.ts), so the build overlaps them
// instead of holding the whole run for half a minute. An app is started only once it is finished: AppPool.start (and
// so the fleet suite, which starts its console first) wait for it (app-process.ts), reading the outcome written here.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { isBuildCurrent } from '../../src/server/process/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file that holds `built` once the build is current, or why it failed; absent while it runs. */
    buildOutcomeFile: string;
  }
}

interface BackgroundBuild {
  readonly outcomeFile: string;
  readonly stop: () => void;
}

// The e2e and browser projects both list this set-up: the second finds the first's build on the process's global object.
const KEY = Symbol.for('flotilla.test.build');
const holder = globalThis as typeof globalThis & { [KEY]?: BackgroundBuild };

function startBuild(): BackgroundBuild {
  const root = process.cwd();
  const folder = mkdtempSync(path.join(tmpdir(), 'flotilla-test-build-'));
  const outcomeFile = path.join(folder, 'outcome');
  if (isBuildCurrent(root)) {
    writeFileSync(outcomeFile, 'built');
    return { outcomeFile, stop: () => undefined };
  }
  const logFile = path.join(folder, 'build.log');
  console.log(`[tests] building the web app in the background (log: ${logFile})`);
  const log = openSync(logFile, 'w');
  const child = spawn('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', log, log] });
  child.once('exit', (code, signal) =>
    writeFileSync(
      outcomeFile,
      code === 0 ? 'built' : `the build failed (${signal ?? `exit code ${String(code)}`}); its output is in ${logFile}`,
    ),
  );
  return { outcomeFile, stop: () => child.exitCode === null && child.kill('SIGTERM') };
}

export function setup(project: TestProject): void {
  holder[KEY] ??= startBuild();
  project.provide('buildOutcomeFile', holder[KEY].outcomeFile);
}

export function teardown(): void {
  holder[KEY]?.stop();
}
