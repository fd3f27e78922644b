// `npm run bench`: the benchmark suite. Runs every `bench:*` script of package.json one after another (or only those
// named: `npm run bench -- fleet queue-grid`), each as a child process whose output passes through, with
// FLOTILLA_BENCH_RESULTS naming a file its figures are appended to (bench/report.ts). Merges the figures into
// bench/results.json (with the bench, the UTC day, the machine and the commit; a figure not re-measured keeps its last
// result), renders the generated section of docs/performance.md from it, and prints the table. Exits non-zero when a
// bench failed to run or reported no figure (a missed target is reported, not a failure).
//   npm run bench [-- <name>…]          every benchmark, or the named ones (the part after `bench:`)
//   npm run bench -- --render-only      renders docs/performance.md from bench/results.json, runs nothing
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RESULTS_FILE_VARIABLE } from './report.ts';
import {
  mergeResults,
  parseFigureLines,
  PERFORMANCE_DOC_PATH,
  readBenchmarks,
  readResults,
  renderedSection,
  resultRows,
  RESULTS_PATH,
  ROOT,
  serialiseResults,
  withSection,
  type BenchResults,
  type Benchmark,
} from './results.ts';

/** Cores, memory and the load average now, as a short text. */
function machine(): string {
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  return `${String(os.availableParallelism())} cores, ${String(Math.round(os.totalmem() / 2 ** 30))} GB, load ${load}`;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function render(results: BenchResults, benchmarks: readonly Benchmark[]): Promise<void> {
  const document = readFileSync(PERFORMANCE_DOC_PATH, 'utf8');
  const updated = withSection(document, await renderedSection(results, benchmarks));
  if (updated !== document) writeFileSync(PERFORMANCE_DOC_PATH, updated);
}

/** A cell's Markdown as plain text: links as their words, no emphasis or code marks. */
const plain = (text: string) => text.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/[*`]/g, '');

function printTable(results: BenchResults, benchmarks: readonly Benchmark[]): void {
  const rows = resultRows(results, benchmarks).map((row) =>
    [row.id ?? row.command, row.target, row.seen, row.holds, row.date, row.machine].map(plain),
  );
  const header = ['figure', 'target', 'seen', 'holds', 'date (commit)', 'machine'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((text, column) => text.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(['', line(header), ...rows.map(line)].join('\n'));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const benchmarks = readBenchmarks();
  if (args.includes('--render-only')) {
    await render(readResults(), benchmarks);
    console.log(`rendered docs/performance.md from bench/results.json`);
    return 0;
  }
  const wanted = args.map((name) => name.replace(/^bench:/, ''));
  const unknown = wanted.filter((name) => !benchmarks.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    console.error(
      `no such benchmark: ${unknown.join(', ')} (known: ${benchmarks.map((benchmark) => benchmark.name).join(', ')})`,
    );
    return 2;
  }
  const selected = wanted.length > 0 ? benchmarks.filter((benchmark) => wanted.includes(benchmark.name)) : benchmarks;
  const directory = mkdtempSync(path.join(os.tmpdir(), 'flotilla-bench-'));
  const failed: string[] = [];
  const took: string[] = [];
  try {
    for (const benchmark of selected) {
      const file = path.join(directory, `${benchmark.name}.jsonl`);
      writeFileSync(file, '');
      const started = { date: new Date().toISOString().slice(0, 10), machine: machine(), at: performance.now() };
      console.log(`\n=== npm run ${benchmark.script} (${started.machine}) ===`);
      const child = spawnSync('npm', ['run', '--silent', benchmark.script], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, [RESULTS_FILE_VARIABLE]: file },
      });
      const seconds = (performance.now() - started.at) / 1000;
      took.push(`${benchmark.name} ${seconds.toFixed(0)} s`);
      const figures = parseFigureLines(readFileSync(file, 'utf8'));
      // What a bench reported before it failed was measured all the same: it is kept.
      if (figures.length > 0) {
        const merged = mergeResults(readResults(), { bench: benchmark.name, ...started, commit: commit(), figures });
        writeFileSync(RESULTS_PATH, serialiseResults(merged));
      }
      if (child.status !== 0)
        failed.push(
          `${benchmark.name} (${child.error?.message ?? (child.signal ? `signal ${child.signal}` : `exit ${String(child.status)}`)})`,
        );
      else if (figures.length === 0) failed.push(`${benchmark.name} (reported no figure)`);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const results = readResults();
  await render(results, benchmarks);
  printTable(results, benchmarks);
  console.log(`\ntook: ${took.join(', ')}`);
  if (failed.length > 0) {
    console.error(`failed to run: ${failed.join(', ')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
