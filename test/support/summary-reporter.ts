// Prints one plain closing line, "tests: N passed, N failed, N skipped", after vitest's own summary, so CI can
// read the outcome of `npm test` whatever runner output format it expects. Tests on real brokers and browsers get
// one retry (vitest.config.ts); every test that passed only on its retry is named here, so a flake is seen and
// fixed rather than hidden. Before it, where the time went (time-report.ts): per project, how busy the cores were, and
// the ten slowest files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { timeReport, type CpuSample, type FileTiming } from './time-report.ts';

const CPU_SAMPLE_EVERY_MS = 2_000;
// Every file's start and end (epoch ms), for what the ten slowest lines leave out: which files overlapped, and a
// per-file comparison between two runs.
const FILE_TIMES = path.resolve(import.meta.dirname, '../../test-results/file-times.json');

function sampleCpu(): CpuSample {
  let busyMs = 0;
  let totalMs = 0;
  for (const { times } of cpus()) {
    const total = times.user + times.nice + times.sys + times.idle + times.irq;
    totalMs += total;
    busyMs += total - times.idle;
  }
  return { at: Date.now(), busyMs, totalMs };
}

/** What the failed attempt of a test that passed on its retry threw (vitest keeps it), so a flake can be diagnosed. */
function firstAttemptError(errors: ReturnType<TestCase['result']>['errors']): string {
  const error = errors?.[0];
  if (!error) return '';
  const where = error.stack
    ?.split('\n')
    .find((line) => /\.test\.ts:\d+/.test(line))
    ?.trim();
  // An assertion's diff says which field differed ("expected { …(23) } to match object" alone does not).
  const diff = stripVTControlCharacters(error.diff ?? '')
    .split('\n')
    .filter((line) => /^\s*[-+]/.test(line))
    .slice(0, DIFF_LINES)
    .map((line) => `\n      ${line}`)
    .join('');
  return `\n    first attempt: ${error.message.split('\n')[0] ?? ''}${diff}${where ? `\n    ${where}` : ''}`;
}

/** The changed lines of a first attempt's assertion diff that are printed, at most. */
const DIFF_LINES = 12;

export default class SummaryReporter implements Reporter {
  private runStartedAt = Date.now();
  private readonly startedAt = new Map<string, number>();
  private readonly timings: FileTiming[] = [];
  private readonly cpu: CpuSample[] = [];
  private sampler: NodeJS.Timeout | undefined;

  onTestRunStart(): void {
    this.runStartedAt = Date.now();
    this.cpu.push(sampleCpu());
    this.sampler = setInterval(() => this.cpu.push(sampleCpu()), CPU_SAMPLE_EVERY_MS);
    this.sampler.unref();
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
    clearInterval(this.sampler);
    this.cpu.push(sampleCpu());
    for (const line of timeReport(this.timings, Date.now() - this.runStartedAt, this.cpu)) console.log(line);
    mkdirSync(path.dirname(FILE_TIMES), { recursive: true });
    writeFileSync(FILE_TIMES, JSON.stringify(this.timings, null, 1));
    console.log(`time: every file's start and end in ${path.relative(process.cwd(), FILE_TIMES)}`);
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const flaky: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
        if (state === 'passed' && test.diagnostic()?.flaky)
          flaky.push(`${testModule.moduleId} > ${test.fullName}${firstAttemptError(test.result().errors)}`);
      }
    }
    for (const name of flaky) console.log(`flaky (passed on its retry): ${name}`);
    console.log(
      `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` +
        (flaky.length > 0 ? ` (${flaky.length} passed only on a retry, named above)` : ''),
    );
  }
}
