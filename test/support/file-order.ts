// The order test files start in (issue 28): within each vitest group, the longest file first, so the group's last
// minutes are not one long file running alone while the other workers have nothing left. Files whose duration is not
// recorded (new ones) go first, as vitest's own sequencer puts them: they may be long. A file that needs the production
// build (the e2e files; the build runs in the background from the run's start) is held back until the files before it
// have kept the workers busy for about as long as the build takes, so it does not hold a worker while it waits.
// Pure, so its unit test can show the order it gives.
import path from 'node:path';

/** The durations table: read by duration-sequencer.ts, written by `npm run test:durations`. */
export const DURATIONS_FILE = path.resolve(import.meta.dirname, 'file-durations.json');

export interface OrderedFile {
  /** `project:path`, the key of the durations table. */
  readonly key: string;
  /** vitest's `sequence.groupOrder`: groups run one after another, lowest first. */
  readonly group: number;
  /** Starts only once the production build may be done. */
  readonly needsBuild: boolean;
}

export interface OrderOptions {
  /** Seconds each file took in a recent run, by key. */
  readonly durations: Readonly<Record<string, number>>;
  /** Workers of a group (its projects' `maxWorkers`). */
  readonly workersOf: (group: number) => number;
  /** About how long the background build takes on a busy machine. */
  readonly buildSeconds: number;
}

// Counted for a file without a recorded duration when estimating when the build is done.
const UNKNOWN_FILE_SECONDS = 10;

function byDurationDescending<T extends OrderedFile>(files: readonly T[], durations: OrderOptions['durations']): T[] {
  const unknown = files.filter((file) => durations[file.key] === undefined);
  const known = files
    .filter((file) => durations[file.key] !== undefined)
    .sort((a, b) => (durations[b.key] ?? 0) - (durations[a.key] ?? 0) || a.key.localeCompare(b.key));
  return [...unknown, ...known];
}

function orderGroup<T extends OrderedFile>(files: readonly T[], workers: number, options: OrderOptions): T[] {
  const ordered = byDurationDescending(
    files.filter((file) => !file.needsBuild),
    options.durations,
  );
  const held = byDurationDescending(
    files.filter((file) => file.needsBuild),
    options.durations,
  );
  if (held.length === 0) return ordered;
  // The first place where the files before it fill the workers for the build's time.
  let busySeconds = 0;
  let at = 0;
  while (at < ordered.length && busySeconds / workers < options.buildSeconds) {
    busySeconds += options.durations[ordered[at]?.key ?? ''] ?? UNKNOWN_FILE_SECONDS;
    at += 1;
  }
  return [...ordered.slice(0, at), ...held, ...ordered.slice(at)];
}

export function orderFiles<T extends OrderedFile>(files: readonly T[], options: OrderOptions): T[] {
  const groups = [...new Set(files.map((file) => file.group))].sort((a, b) => a - b);
  return groups.flatMap((group) =>
    orderGroup(
      files.filter((file) => file.group === group),
      options.workersOf(group),
      options,
    ),
  );
}
