// Run before each browser and e2e file (their projects' setupFiles): when a test of the file failed, or passed only on
// its retry, every app the file started leaves its whole output in test-results/apps/, named after the file and the
// app's port. A failure's message carries the app's last 40 lines at most; the start of a fault is often further up.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { takeStartedApps } from './app-process.ts';

const APP_OUTPUT_DIR = path.resolve(import.meta.dirname, '../../test-results/apps');

/** The part of a vitest task this needs: a test's result, or a suite's tasks. */
export interface TaskOutcome {
  readonly type: string;
  readonly result?: { readonly state?: string; readonly retryCount?: number };
  readonly tasks?: readonly TaskOutcome[];
}

/** Whether any test under the task failed, or failed once and passed on its retry. */
export function anyTestFailed(task: TaskOutcome): boolean {
  if (task.type === 'test') return task.result?.state === 'fail' || (task.result?.retryCount ?? 0) > 0;
  return (task.tasks ?? []).some(anyTestFailed);
}

/** The file name an app's kept output gets: the test file's path made one word, and the app's port. */
export function keptOutputName(testFile: string, port: number): string {
  return `${testFile.replace(/^.*?(src|test)\//, '$1/').replace(/[^\w.-]+/g, '_')}-${String(port)}.log`;
}

// A worker runs several files one after another (isolation off): only this file's apps count.
beforeAll(() => {
  takeStartedApps();
});

// eslint-disable-next-line no-empty-pattern -- vitest reads a hook's first parameter as fixtures: an object pattern
afterAll(({}, file) => {
  const apps = takeStartedApps();
  if (apps.length === 0 || !anyTestFailed(file)) return;
  mkdirSync(APP_OUTPUT_DIR, { recursive: true });
  for (const app of apps) {
    const kept = path.join(APP_OUTPUT_DIR, keptOutputName(file.name, app.port));
    writeFileSync(kept, app.output());
    console.log(
      `[tests] a test of ${file.name} failed: the output of its app on port ${String(app.port)} is in ${kept}`,
    );
  }
});
