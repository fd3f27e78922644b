// Projects, chosen by a file's suffix alone, wherever it lives: *.int.test.ts integration (real PostgreSQL),
// *.broker.test.ts brokers (real Artemis brokers, with PostgreSQL), *.browser.test.ts browser (real Chromium on the app
// as `npm start` runs it), *.e2e.test.ts e2e (the app started as `npm start` does), any other *.test.ts unit (pure
// logic, the architecture rules and the test kit's own tests).
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import DurationSequencer from './test/support/duration-sequencer.ts';

// Suites on real JVMs, processes and a browser get one retry: two cores under a full run make their timing noisy, and
// the summary reporter names every test that passed only on its retry (a flake to fix, not to hide).
const retryOnRealComponents = 1;
// Two groups, one after the other (ADR 40; the worker counts measured on two cores, ADR 24): first the broker, e2e,
// integration and unit files together, three at a time on two cores — the broker and e2e files wait on cadences, JVMs
// and app starts, and the integration files fill those waits (one group took 585 s where the two it replaced took
// about 660); then the browser files, one per core (Chromium and their own app processes keep both cores busy). Within
// a group the longest file starts first (duration-sequencer.ts). A machine with more cores runs more at once, up to
// four cores' worth: each worker holds database connections (PostgreSQL allows 100 by default) and leans on the same
// pooled brokers.
const cores = Math.min(4, Math.max(2, availableParallelism()));
const realComponentWorkers = Math.round(cores * 1.5);
const appWorkers = cores;
const GROUP = { realComponents: 0, apps: 1 } as const;
// The unit, integration, broker and browser files share a worker's imported modules instead of importing the app
// afresh for each file (ADR 34, ADR 38): measured alone on 2026-12-05, unit 82 → 35 CPU-seconds (45 → 19 s),
// integration 249 → 107 (172 → 98 s); six broker files 41.5 → 32.9, the browser project 471 → 427 s (2026-12-06).
// Every such file opens its own runtime on its own database, so nothing it asserts lives in a module. The e2e files
// keep isolation: they kill and restart the processes they start, and there are five of them.
const ISOLATE_FILES = false;
// One secret key for every broker file: the process's key ring is read once per worker (processKeys()), and the
// workers outlive a file. The same value as the worker kit's TEST_SECRET_KEY.
const BROKER_FILES_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
// The run's shared brokers (ADR 20), started once for the broker and browser projects together.
const BROKER_POOL = 'test/support/broker-pool-global-setup.ts';
// A failed file's apps leave their whole output in test-results/apps/ (the browser and e2e files start apps).
const APP_OUTPUT_ON_FAILURE = 'test/support/app-output-on-failure.ts';
const REAL_COMPONENT_SUFFIXES = ['.int.test.ts', '.broker.test.ts', '.browser.test.ts', '.e2e.test.ts'];
const alias = {
  '@': path.resolve(import.meta.dirname, 'src'),
  // The test kit (test/support), imported the same way from any depth.
  '@test': path.resolve(import.meta.dirname, 'test/support'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Longest file first within each group, from the durations of a recent run (a clean clone has no vitest cache).
    sequence: { sequencer: DurationSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          maxWorkers: realComponentWorkers,
          isolate: ISOLATE_FILES,
          sequence: { groupOrder: GROUP.realComponents },
          include: ['{src,test}/**/*.test.ts'],
          // The fixture trees hold *.test.ts files as import-graph material, not as tests.
          exclude: [...REAL_COMPONENT_SUFFIXES.map((suffix) => `**/*${suffix}`), 'test/architecture/fixtures/**'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          maxWorkers: realComponentWorkers,
          isolate: ISOLATE_FILES,
          sequence: { groupOrder: GROUP.realComponents },
          include: ['{src,test}/**/*.int.test.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Tests on real Artemis brokers (test/support/artemis): a JVM takes seconds to start on two cores.
        resolve: { alias },
        test: {
          name: 'brokers',
          maxWorkers: realComponentWorkers,
          isolate: ISOLATE_FILES,
          env: { FLOTILLA_SECRET_KEY: BROKER_FILES_SECRET_KEY },
          setupFiles: ['test/support/broker-file-setup.ts'],
          sequence: { groupOrder: GROUP.realComponents },
          include: ['{src,test}/**/*.broker.test.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts', BROKER_POOL],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          retry: retryOnRealComponents,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['{src,test}/**/*.e2e.test.ts'],
          setupFiles: [APP_OUTPUT_ON_FAILURE],
          globalSetup: ['test/support/postgres-global-setup.ts', 'test/support/build-global-setup.ts'],
          // With the broker files: alone at the end of the browser files it would leave a core idle.
          maxWorkers: realComponentWorkers,
          sequence: { groupOrder: GROUP.realComponents },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          retry: retryOnRealComponents,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser',
          isolate: ISOLATE_FILES,
          setupFiles: [APP_OUTPUT_ON_FAILURE],
          // test/fleet: the demo fleet's four JVMs, registered in Flotilla and failed over in Chromium.
          include: ['{src,test}/**/*.browser.test.ts'],
          globalSetup: [
            'test/support/postgres-global-setup.ts',
            'test/support/build-global-setup.ts',
            'test/support/chromium-global-setup.ts',
            BROKER_POOL,
            // The console shared by the files that need no app of their own (ADR 37), started when one asks.
            'test/support/shared-console-global-setup.ts',
          ],
          maxWorkers: appWorkers,
          sequence: { groupOrder: GROUP.apps, concurrent: false },
          testTimeout: 120_000,
          hookTimeout: 240_000,
          retry: retryOnRealComponents,
        },
      },
    ],
  },
});
