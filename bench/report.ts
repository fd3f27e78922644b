// How a benchmark reports a headline figure: one line on its output, and, when it runs under `npm run bench`
// (bench/run-all.ts names a file in FLOTILLA_BENCH_RESULTS), one JSON line appended to that file. The runner adds the
// bench's name, the date, the machine and the commit, and merges the figures into bench/results.json, from which the
// generated table of docs/performance.md is rendered.
import { appendFileSync } from 'node:fs';

/** The environment variable naming the file a bench appends its figures to (set by bench/run-all.ts). */
export const RESULTS_FILE_VARIABLE = 'FLOTILLA_BENCH_RESULTS';

export interface BenchFigure {
  /** Stable across runs, `<bench>.<what>`, e.g. 'fleet.home-p95': a re-measured figure replaces its last result. */
  readonly id: string;
  /** What is measured, in words. */
  readonly figure: string;
  /** The target as the issue writes it, '—' when there is none. */
  readonly target: string;
  /** The measured value with its unit. */
  readonly seen: string;
  /** Whether the target holds; undefined when the target is not a pass/fail (or there is none). */
  readonly holds?: boolean | undefined;
}

/** The line a figure prints: `figure <id>: <seen> (target <target>) holds|MISSES`. */
export function figureLine(figure: BenchFigure): string {
  const verdict = figure.holds === undefined ? '' : figure.holds ? ' holds' : ' MISSES';
  return `figure ${figure.id}: ${figure.seen} (target ${figure.target})${verdict}`;
}

/** Prints the figure and, under `npm run bench`, appends it to the run's results file. */
export function reportFigure(figure: BenchFigure): void {
  console.log(figureLine(figure));
  const file = process.env[RESULTS_FILE_VARIABLE];
  if (!file) return;
  const { id, figure: words, target, seen, holds } = figure;
  appendFileSync(
    file,
    `${JSON.stringify({ id, figure: words, target, seen, ...(holds === undefined ? {} : { holds }) })}\n`,
  );
}
