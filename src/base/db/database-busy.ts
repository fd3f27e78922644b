// Errors that mean "the database did not answer in time", not "the request was wrong" or "the code is broken": the
// pool had no free connection (Prisma P2024, pg's connect timeout), an interactive transaction could not start
// within its wait (P2028), or the server could not be reached or dropped the connection (P1001, P1002, P1017). Under
// load or during a database restart they are expected, and a caller gets 503 (try again) instead of 500.
const BUSY_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024', 'P2028']);
const BUSY_MESSAGES = [
  /Unable to start a transaction in the given time/i,
  /timeout exceeded when trying to connect/i,
  /Timed out fetching a new connection from the connection pool/i,
  /Connection terminated (unexpectedly|due to connection timeout)/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  // PostgreSQL restarting after one of its processes crashed (a PANIC, e.g. no room for new WAL): 57P02, 57P03.
  /terminating connection because of crash of another server process/i,
  /connect ECONNREFUSED/i,
];
// PostgreSQL's disk_full (SQLSTATE 53100): a table, index or WAL file could not grow. Prisma's driver adapter keeps
// the code as `originalCode` or in a `postgres` error's `code`, and its message carries the server's.
const FULL_CODE = '53100';
const FULL_MESSAGE = /No space left on device/i;

/** Each error of the cause chain (a few deep), and the driver-adapter details Prisma keeps beside them. */
function* chain(error: unknown): Generator<Error & { code?: unknown; originalCode?: unknown; meta?: unknown }> {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    yield current;
    current = current.cause;
  }
}

export function isDatabaseBusy(error: unknown): boolean {
  for (const current of chain(error)) {
    const code = current.code;
    if (typeof code === 'string' && BUSY_CODES.has(code)) return true;
    if (BUSY_MESSAGES.some((pattern) => pattern.test(current.message))) return true;
  }
  return false;
}

/** PostgreSQL is out of disk space: writes fail until an operator frees some, reads still work. */
export function isDatabaseFull(error: unknown): boolean {
  for (const current of chain(error)) {
    if (current.code === FULL_CODE || current.originalCode === FULL_CODE) return true;
    if (FULL_MESSAGE.test(current.message)) return true;
  }
  return false;
}
