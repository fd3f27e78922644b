// The rules of .dependency-cruiser.cjs on a fixture tree that breaks each of them on purpose (files named imports-*,
// plus a cycle) and also holds imports they must allow (public entries, same-module, test file to test/support).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruiseResult } from './cruise.ts';

const fixture = path.join(import.meta.dirname, 'fixtures/boundaries');
const queues = 'src/modules/feature/queues';
const audit = 'src/modules/kernel/audit';
const scrape = 'src/modules/platform/scrape';

/** A package's resolved path (node_modules/rhea/lib/...) as its name, which does not depend on where it is installed. */
const packageOrPath = (resolved: string) => /node_modules\/([^/]+)\//.exec(resolved)?.[1] ?? resolved;

describe('dependency-cruiser boundary rules', () => {
  it('report each deliberate violation of the fixture tree, and nothing else', async () => {
    const { summary } = await cruiseResult(fixture, ['src', 'worker', 'test', 'bench', 'scripts']);
    const violations = summary.violations.map(({ rule, from, to }) => [
      rule.name,
      rule.severity,
      from,
      packageOrPath(to),
    ]);
    expect(violations.sort()).toEqual(
      [
        // A cycle is reported once, at the import that closes it.
        ['no-circular', `${audit}/server/entry-kind.ts`, `${audit}/server/entry.ts`],
        ['base-is-ground-floor', 'src/base/backoff.ts', 'src/ui/format.ts'],
        ['kernel-not-upward', `${audit}/server/imports-feature.ts`, `${queues}/module.ts`],
        ['platform-not-feature', 'src/modules/platform/broker/server/imports-feature.ts', `${queues}/index.ts`],
        [
          'commands-above-clusters-and-broker',
          'src/modules/platform/broker/server/imports-commands.ts',
          'src/modules/platform/commands/index.ts',
        ],
        ['contract-imports-no-module', 'src/modules/kernel/plugin/imports-module.ts', `${audit}/index.ts`],
        ['read-side-not-writer', `${scrape}/read/imports-writer.ts`, `${scrape}/server/queue-totals.ts`],
        ['scrape-read-only', `${queues}/server/imports-scrape-writer.ts`, `${scrape}/index.ts`],
        ['production-not-test', `${queues}/server/imports-test-support.ts`, 'test/support/clock.ts'],
        ['production-not-test', `${queues}/server/imports-test-file.ts`, `${queues}/server/queues.test.ts`],
        ['production-not-test', 'src/ui/shell.test.ts', 'test/e2e/app.ts'],
        ['modules-not-roof', `${queues}/server/imports-installation.ts`, 'src/installation/installed.ts'],
        ['ui-not-roof', 'src/ui/imports-server.ts', 'src/server/runtime.ts'],
        ['public-entry-only', `${queues}/server/imports-other-module-internals.ts`, `${audit}/server/audit-store.ts`],
        ['public-entry-only', 'src/server/imports-module-internals.ts', `${queues}/server/queue-store.ts`],
        ['broker-libraries-in-broker', `${queues}/server/imports-rhea.ts`, 'rhea'],
        ['production-not-tools', 'src/server/imports-tool.ts', 'bench/imports-app.ts'],
        ['scripts-through-entries', 'scripts/imports-module-internals.ts', `${queues}/server/queue-store.ts`],
        ['tools-not-app', 'bench/imports-app.ts', 'src/app/page.tsx'],
      ]
        .map(([rule, from, to]) => [rule, 'error', from, to])
        .sort(),
    );
  });
});
