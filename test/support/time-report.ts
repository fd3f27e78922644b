// Where a test run's time went, printed after its summary (issue 28): the wall-clock time of the whole run and of each
// project (first file started to last file ended, files of a project overlap on the workers), the summed file time
// per project, how busy the machine's cores were meanwhile, the time no file was running (set-ups before the first
// file and between the groups), and the ten slowest files. A project whose cores were
// idle much of its wall clock waits (on cadences, JVMs, a browser) and has room for other work beside it; one near
// 100 % is bound by the CPU. Pure, so its unit test can show it sorting, summing and reading the samples.

export interface FileTiming {
  readonly project: string;
  /** Path relative to the repository root. */
  readonly file: string;
  /** Epoch ms when the file started and ended (set-up, tests and hooks, as the worker saw them). */
  readonly startedAt: number;
  readonly endedAt: number;
}

/** The machine's cumulative CPU time at one moment (all cores, as os.cpus() gives it). */
export interface CpuSample {
  readonly at: number;
  readonly busyMs: number;
  readonly totalMs: number;
}

const SLOWEST_SHOWN = 10;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The last sample taken at or before `at` (the first one when none is). */
function sampleAt(samples: readonly CpuSample[], at: number): CpuSample | undefined {
  let found = samples[0];
  for (const sample of samples) if (sample.at <= at) found = sample;
  return found;
}

/** Share of all cores' time spent busy between two moments, or undefined without two distinct samples. */
export function cpuBusyShare(samples: readonly CpuSample[], from: number, to: number): number | undefined {
  const first = sampleAt(samples, from);
  const last = sampleAt(samples, to);
  if (!first || !last || last.totalMs <= first.totalMs) return undefined;
  return (last.busyMs - first.busyMs) / (last.totalMs - first.totalMs);
}

function cpuNote(samples: readonly CpuSample[], from: number, to: number): string {
  const share = cpuBusyShare(samples, from, to);
  return share === undefined ? '' : `, cores ${Math.round(share * 100)} % busy`;
}

/** Run time in which no file was running: before the first one started, and between files (group changes). */
export function timeWithoutFiles(files: readonly FileTiming[], runStart: number): { before: number; between: number } {
  const sorted = [...files].sort((a, b) => a.startedAt - b.startedAt);
  let between = 0;
  let coveredTo = sorted[0]?.endedAt ?? runStart;
  for (const file of sorted) {
    if (file.startedAt > coveredTo) between += file.startedAt - coveredTo;
    coveredTo = Math.max(coveredTo, file.endedAt);
  }
  const firstStart = sorted[0]?.startedAt ?? runStart;
  return { before: Math.max(0, firstStart - runStart), between };
}

export function timeReport(files: readonly FileTiming[], runMs: number, cpu: readonly CpuSample[] = []): string[] {
  const runEnd = Math.max(0, ...files.map((f) => f.endedAt));
  const lines = [`time: whole run ${seconds(runMs)}, ${files.length} files${cpuNote(cpu, runEnd - runMs, runEnd)}`];
  const projects = new Map<string, FileTiming[]>();
  for (const file of files) projects.set(file.project, [...(projects.get(file.project) ?? []), file]);
  const byFirstStart = [...projects.entries()].sort(
    ([, a], [, b]) => Math.min(...a.map((f) => f.startedAt)) - Math.min(...b.map((f) => f.startedAt)),
  );
  for (const [project, own] of byFirstStart) {
    const first = Math.min(...own.map((f) => f.startedAt));
    const last = Math.max(...own.map((f) => f.endedAt));
    const summed = own.reduce((total, f) => total + (f.endedAt - f.startedAt), 0);
    lines.push(
      `time: project ${project}: ${seconds(last - first)} wall clock, ${seconds(summed)} in ${own.length} files` +
        cpuNote(cpu, first, last),
    );
  }
  if (files.length > 0) {
    const { before, between } = timeWithoutFiles(files, runEnd - runMs);
    lines.push(
      `time: no file running: ${seconds(before + between)} (before the first ${seconds(before)}, between files ` +
        `${seconds(between)})`,
    );
  }
  const slowest = [...files]
    .sort((a, b) => b.endedAt - b.startedAt - (a.endedAt - a.startedAt))
    .slice(0, SLOWEST_SHOWN);
  lines.push(`time: the ${slowest.length} slowest files`);
  for (const file of slowest)
    lines.push(`time:   ${seconds(file.endedAt - file.startedAt).padStart(8)}  ${file.project}  ${file.file}`);
  return lines;
}
