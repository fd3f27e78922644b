// The four bounds every query runs under; each one reached is reported in words, never silently.
export interface QueryBounds {
  /** (node, queue) pairs a live read looks at. */
  readonly targetCap: number;
  /** Messages (or index rows) examined. */
  readonly scanCap: number;
  /** Rows returned, whatever the LIMIT. */
  readonly rowCap: number;
  readonly timeoutMs: number;
}

type BoundName = 'target-cap' | 'scan-cap' | 'row-cap' | 'timeout';

export interface BoundReached {
  readonly bound: BoundName;
  /** What stopped and what the answer therefore lacks, with how to go further. */
  readonly words: string;
}

const count = (value: number) => value.toLocaleString('en-US');

export const boundWords = {
  targetCap: (read: number, total: number) =>
    `Stopped at the target cap: read ${count(read)} of ${count(total)} queues on their nodes (fullest first); the other ${count(total - read)} were not read. Narrow the address pattern or raise sql.target-cap.`,
  scanCap: (scanned: number) =>
    `Stopped at the scan cap: ${count(scanned)} messages examined; messages beyond them were not looked at. Push more of the WHERE to the broker (headers, properties), narrow the time range, or raise sql.scan-cap.`,
  rowCap: (cap: number) =>
    `Stopped at the row cap: ${count(cap)} rows shown and more matched. Add a LIMIT, narrow the WHERE, or raise sql.row-cap.`,
  timeout: (ms: number, scanned: number) =>
    `Stopped at the timeout after ${(ms / 1000).toFixed(1)} s with ${count(scanned)} messages examined; the rows are what was found by then. Narrow the query or raise sql.timeout.`,
} as const;
