// Server code logs through src/base/log (ADR 33); the console is for the browser's code, tests and the two CLIs that
// talk to a person at a terminal. ESLint's no-console enforces it in `npm test`; this checks the rule reaches the
// files it should, so a loosened glob fails here rather than letting console calls back in unnoticed.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function noConsoleSeverity(file: string): Promise<unknown> {
  const config = (await eslint.calculateConfigForFile(path.join(root, file))) as {
    rules?: Record<string, unknown>;
  };
  const rule = config.rules?.['no-console'];
  return Array.isArray(rule) ? rule[0] : rule;
}

describe('server code logs through src/base/log, not the console', () => {
  // The first question loads ESLint's whole configuration (typescript-eslint, the plugins): seconds on a busy machine,
  // beyond a test's 5 s. Loaded once here, with room, the questions below are quick.
  beforeAll(() => noConsoleSeverity('worker/main.ts'), 60_000);

  it.each([
    'src/modules/kernel/jobs/server/scheduler.ts',
    'src/modules/platform/scrape/server/scrape.worker.ts',
    'src/server/http/rest.ts',
    'src/server/process/supervisor.ts',
    'src/base/db/bus.ts',
    'src/app/api/v1/[...path]/route.ts',
    'worker/main.ts',
  ])('refuses a console call in %s', async (file) => {
    expect(await noConsoleSeverity(file)).toBe(2);
  });

  it.each([
    'src/ui/chart/line-chart.tsx',
    'src/modules/feature/queues/ui/queues.screen.tsx',
    'src/modules/kernel/jobs/server/scheduler.int.test.ts',
    'src/modules/platform/broker/management/probe-cli.ts',
    'src/modules/platform/clusters/server/credentials/reseal-cli.ts',
  ])('lets %s use the console', async (file) => {
    expect(await noConsoleSeverity(file)).toBeOneOf([undefined, 0, 'off']);
  });
});
