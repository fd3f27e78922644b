// The benchmark suite's results (bench/results.json) and the generated section of docs/performance.md: the figures a
// run reported merged into the last results (a figure not re-measured keeps its last result), and the table rendered
// from them, one row a figure, a benchmark that reported none yet as one row pointing at the history table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import type { BenchFigure } from './report.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_PATH = path.join(ROOT, 'bench', 'results.json');
export const PERFORMANCE_DOC_PATH = path.join(ROOT, 'docs', 'performance.md');
export const SECTION_START = '<!-- bench:results:start -->';
export const SECTION_END = '<!-- bench:results:end -->';

/** A figure as it was last measured: what the bench reported, and where and when. */
export interface StoredFigure {
  readonly bench: string;
  readonly figure: string;
  readonly target: string;
  readonly seen: string;
  readonly holds?: boolean;
  /** The UTC day of the run. */
  readonly date: string;
  /** Cores, memory and the load average when the bench started, as a short text. */
  readonly machine: string;
  /** `git rev-parse --short HEAD` when the bench ran. */
  readonly commit: string;
}

export interface BenchResults {
  /** By figure id, in the order the figures were first reported. */
  readonly figures: Readonly<Record<string, StoredFigure>>;
}

/** One bench's run: its name (the `bench:<name>` script) and the figures it reported. */
export interface BenchRun {
  readonly bench: string;
  readonly date: string;
  readonly machine: string;
  readonly commit: string;
  readonly figures: readonly BenchFigure[];
}

/** A benchmark of package.json: `npm run bench:<name>`. */
export interface Benchmark {
  readonly name: string;
  readonly script: string;
}

/** The `bench:*` scripts of a package.json, in its order. */
export function benchmarksOf(packageJson: { scripts?: Record<string, string> }): Benchmark[] {
  return Object.keys(packageJson.scripts ?? {})
    .filter((script) => script.startsWith('bench:'))
    .map((script) => ({ name: script.slice('bench:'.length), script }));
}

export function readBenchmarks(): Benchmark[] {
  return benchmarksOf(
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> },
  );
}

export function readResults(file = RESULTS_PATH): BenchResults {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { figures: {} };
    throw error;
  }
}

export function serialiseResults(results: BenchResults): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

/** The figures a bench appended to its results file, one JSON object a line. */
export function parseFigureLines(text: string): BenchFigure[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as BenchFigure);
}

/** The run's figures over the last results: a re-measured figure replaced in place, a new one added at the end. */
export function mergeResults(previous: BenchResults, run: BenchRun): BenchResults {
  const figures: Record<string, StoredFigure> = { ...previous.figures };
  for (const { id, figure, target, seen, holds } of run.figures) {
    figures[id] = {
      bench: run.bench,
      figure,
      target,
      seen,
      ...(holds === undefined ? {} : { holds }),
      date: run.date,
      machine: run.machine,
      commit: run.commit,
    };
  }
  return { figures };
}

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim() || '—';
const verdict = (holds: boolean | undefined) => (holds === undefined ? '—' : holds ? 'holds' : '**misses**');

export interface ResultRow {
  readonly id: string | undefined;
  readonly figure: string;
  readonly target: string;
  readonly seen: string;
  readonly holds: string;
  readonly command: string;
  readonly date: string;
  readonly machine: string;
}

/**
 * The rows of the table: the benchmarks in package.json's order, each with its figures in the order they were first
 * reported, or one row saying it was not measured through `npm run bench` yet. Figures of a benchmark no longer in
 * package.json come last.
 */
export function resultRows(results: BenchResults, benchmarks: readonly Benchmark[]): ResultRow[] {
  const entries = Object.entries(results.figures);
  const known = new Set(benchmarks.map((benchmark) => benchmark.name));
  const rowOf = ([id, stored]: [string, StoredFigure]): ResultRow => ({
    id,
    figure: stored.figure,
    target: stored.target,
    seen: stored.seen,
    holds: verdict(stored.holds),
    command: `npm run bench:${stored.bench}`,
    date: `${stored.date} (${stored.commit})`,
    machine: stored.machine,
  });
  const rows = benchmarks.flatMap((benchmark): ResultRow[] => {
    const own = entries.filter(([, stored]) => stored.bench === benchmark.name);
    if (own.length > 0) return own.map(rowOf);
    return [
      {
        id: undefined,
        figure: `${benchmark.name}: not measured through \`npm run bench\` yet`,
        target: '—',
        seen: 'see the [history](#history) below',
        holds: '—',
        command: `npm run ${benchmark.script}`,
        date: '—',
        machine: '—',
      },
    ];
  });
  return [...rows, ...entries.filter(([, stored]) => !known.has(stored.bench)).map(rowOf)];
}

/** The generated section, markers included, before formatting. */
export function renderSection(results: BenchResults, benchmarks: readonly Benchmark[]): string {
  const header = ['Figure', 'Target', 'Seen', 'Holds', 'Benchmark', 'Date (commit)', 'Machine'];
  const lines = resultRows(results, benchmarks).map(
    (row) =>
      `| ${[row.figure, row.target, row.seen, row.holds, `\`${row.command}\``, row.date, row.machine].map(cell).join(' | ')} |`,
  );
  return [
    SECTION_START,
    '<!-- Generated by `npm run bench` from bench/results.json (`npm run bench -- --render-only` renders it again): do not edit by hand. -->',
    '',
    '## Latest figures',
    '',
    'The last result of every figure a benchmark reports, as `npm run bench` measured it (machine: cores, memory and',
    'the load average when the benchmark started).',
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...lines,
    '',
    SECTION_END,
  ].join('\n');
}

/** The section formatted as the repository's Prettier formats docs/performance.md. */
export async function formatSection(section: string): Promise<string> {
  const config = (await resolveConfig(PERFORMANCE_DOC_PATH)) ?? {};
  return (await format(section, { ...config, parser: 'markdown' })).trimEnd();
}

/** The generated section of a document (markers included), or undefined when it has none. */
export function sectionOf(document: string): string | undefined {
  const start = document.indexOf(SECTION_START);
  const end = document.indexOf(SECTION_END);
  if (start < 0 || end < start) return undefined;
  return document.slice(start, end + SECTION_END.length);
}

/** The document with its generated section replaced. */
export function withSection(document: string, section: string): string {
  const current = sectionOf(document);
  if (current === undefined) throw new Error(`docs/performance.md has no ${SECTION_START} … ${SECTION_END} section`);
  return document.replace(current, () => section);
}

/** The section the results render to, formatted. */
export async function renderedSection(results: BenchResults, benchmarks: readonly Benchmark[]): Promise<string> {
  return formatSection(renderSection(results, benchmarks));
}
