// Projects (brokers: tests on real Artemis brokers, src/modules/platform/broker/**/*.int.test.ts, src/**/*.brokers.int.test.ts
// with PostgreSQL too; browser: test/browser and the demo fleet's test/fleet): unit (pure logic, beside the code),
// integration (real PostgreSQL, beside the code as *.int.test.ts, plus test/integration and test/architecture) and e2e
// (the app started as `npm start` does).
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Suites on real JVMs, processes and a browser get one retry: two cores under a full run make their timing noisy, and
// the summary reporter names every test that passed only on its retry (a flake to fix, not to hide).
const retryOnRealComponents = 1;
// Unit, integration and broker files share one group of two workers: broker suites mostly wait on cadences, not on
// the cores, so two at a time nearly halve the run (browser and e2e suites run one by one after them).
const groupWorkers = 2;
const alias = { '@': path.resolve(import.meta.dirname, 'src') };

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          maxWorkers: groupWorkers,
          include: ['src/**/*.test.ts', 'test/architecture/**/*.test.ts', 'test/support/**/*.test.ts'],
          // The fixture trees hold *.test.ts files as import-graph material, not as tests.
          exclude: ['src/**/*.int.test.ts', 'test/architecture/fixtures/**'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          maxWorkers: groupWorkers,
          include: ['src/**/*.int.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ['src/modules/platform/broker/**/*.int.test.ts', 'src/**/*.brokers.int.test.ts'],
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
          maxWorkers: groupWorkers,
          // *.brokers.int.test.ts: modules above the broker platform tested on brokers and PostgreSQL together.
          include: ['src/modules/platform/broker/**/*.int.test.ts', 'src/**/*.brokers.int.test.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          retry: retryOnRealComponents,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts', 'test/support/build-global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          retry: retryOnRealComponents,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser',
          // test/fleet: the demo fleet's four JVMs, registered in Flotilla and failed over in Chromium.
          include: ['test/browser/**/*.test.ts', 'test/fleet/**/*.test.ts'],
          globalSetup: [
            'test/support/postgres-global-setup.ts',
            'test/support/build-global-setup.ts',
            'test/support/chromium-global-setup.ts',
          ],
          fileParallelism: false,
          sequence: { concurrent: false },
          testTimeout: 120_000,
          hookTimeout: 240_000,
          retry: retryOnRealComponents,
        },
      },
    ],
  },
});
