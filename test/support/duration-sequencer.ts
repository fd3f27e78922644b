// vitest's sequencer for the whole run (vitest.config.ts): the order of file-order.ts, from the durations a recent run
// recorded (test/support/file-durations.json, refreshed by `npm run test:durations` from test-results/file-times.json).
// vitest's own sequencer orders by its cache of the last run, which a clean clone (CI) does not have: there it runs
// the larger files first, and a 140-s broker file could start last.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DURATIONS_FILE, orderFiles } from './file-order.ts';

// A project whose set-up starts the background build runs apps of the build (vitest.config.ts lists it there).
const BUILD_SETUP = 'build-global-setup.ts';
// The background build took 60–110 s beside the broker files on the two-core machine.
const BUILD_SECONDS = 100;

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class DurationSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const workers = new Map<number, number>();
    for (const { project } of files) {
      const maxWorkers = project.config.maxWorkers;
      if (typeof maxWorkers === 'number') workers.set(project.config.sequence.groupOrder, maxWorkers);
    }
    const entries = files.map((spec) => ({
      spec,
      key: `${spec.project.name}:${path.relative(root, spec.moduleId)}`,
      group: spec.project.config.sequence.groupOrder,
      needsBuild: [spec.project.config.globalSetup].flat().some((setup) => setup.endsWith(BUILD_SETUP)),
    }));
    const ordered = orderFiles(entries, {
      durations: readDurations(),
      workersOf: (group) => workers.get(group) ?? 2,
      buildSeconds: BUILD_SECONDS,
    });
    return Promise.resolve(ordered.map((entry) => entry.spec));
  }
}
