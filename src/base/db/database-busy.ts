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
  /the database system is (starting up|shutting down)/i,
  /terminating connection due to administrator command/i,
  /connect ECONNREFUSED/i,
];

export function isDatabaseBusy(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && BUSY_CODES.has(code)) return true;
    if (BUSY_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : ''))) return true;
    current = current.cause;
  }
  return false;
}
