// Prints one plain closing line, "tests: N passed, N failed, N skipped", after vitest's own summary, so CI can
// read the outcome of `npm test` whatever runner output format it expects. Tests on real brokers and browsers get
// one retry (vitest.config.ts); every test that passed only on its retry is named here, so a flake is seen and
// fixed rather than hidden. Before it, where the time went (time-report.ts): per project and the ten slowest files.
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { timeReport, type FileTiming } from './time-report.ts';

export default class SummaryReporter implements Reporter {
  private runStartedAt = Date.now();
  private readonly startedAt = new Map<string, number>();
  private readonly timings: FileTiming[] = [];

  onTestRunStart(): void {
    this.runStartedAt = Date.now();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.startedAt.set(testModule.id, Date.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const endedAt = Date.now();
    this.timings.push({
      project: testModule.project.name,
      file: path.relative(process.cwd(), testModule.moduleId),
      startedAt: this.startedAt.get(testModule.id) ?? endedAt - testModule.diagnostic().duration,
      endedAt,
    });
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    for (const line of timeReport(this.timings, Date.now() - this.runStartedAt)) console.log(line);
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const flaky: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
        if (state === 'passed' && test.diagnostic()?.flaky) flaky.push(`${testModule.moduleId} > ${test.fullName}`);
      }
    }
    for (const name of flaky) console.log(`flaky (passed on its retry): ${name}`);
    console.log(
      `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` +
        (flaky.length > 0 ? ` (${flaky.length} passed only on a retry, named above)` : ''),
    );
  }
}
