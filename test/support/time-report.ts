// Where a test run's time went, printed after its summary (issue 28): the wall-clock time of the whole run and of each
// project (first file started to last file ended, files of a project overlap on the workers), the summed file time
// per project, and the ten slowest files. Pure, so its unit test can show it sorting and summing.

export interface FileTiming {
  readonly project: string;
  /** Path relative to the repository root. */
  readonly file: string;
  /** Epoch ms when the file started and ended (set-up, tests and hooks, as the worker saw them). */
  readonly startedAt: number;
  readonly endedAt: number;
}

const SLOWEST_SHOWN = 10;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function timeReport(files: readonly FileTiming[], runMs: number): string[] {
  const lines = [`time: whole run ${seconds(runMs)}, ${files.length} files`];
  const projects = new Map<string, FileTiming[]>();
  for (const file of files) projects.set(file.project, [...(projects.get(file.project) ?? []), file]);
  const byFirstStart = [...projects.entries()].sort(
    ([, a], [, b]) => Math.min(...a.map((f) => f.startedAt)) - Math.min(...b.map((f) => f.startedAt)),
  );
  for (const [project, own] of byFirstStart) {
    const span = Math.max(...own.map((f) => f.endedAt)) - Math.min(...own.map((f) => f.startedAt));
    const summed = own.reduce((total, f) => total + (f.endedAt - f.startedAt), 0);
    lines.push(`time: project ${project}: ${seconds(span)} wall clock, ${seconds(summed)} in ${own.length} files`);
  }
  const slowest = [...files]
    .sort((a, b) => b.endedAt - b.startedAt - (a.endedAt - a.startedAt))
    .slice(0, SLOWEST_SHOWN);
  lines.push(`time: the ${slowest.length} slowest files`);
  for (const file of slowest)
    lines.push(`time:   ${seconds(file.endedAt - file.startedAt).padStart(8)}  ${file.project}  ${file.file}`);
  return lines;
}
