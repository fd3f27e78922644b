// When a node's sweep counts as stale: its last successful sweep of a tier is older than two of that tier's
// intervals (one missed tick is jitter, two is a node that is not being read). Never swept is stale too.
const STALE_AFTER_INTERVALS = 2;

export function isStale(lastCompletedAt: Date | null | undefined, intervalMs: number, now: Date = new Date()): boolean {
  if (!lastCompletedAt) return true;
  return now.getTime() - lastCompletedAt.getTime() > STALE_AFTER_INTERVALS * intervalMs;
}

/**
 * A node's queue numbers are as fresh as the newer of its tier-B and tier-C sweeps (both write queue_snapshot),
 * judged against tier B's cadence, the faster of the two.
 */
export function queueDataStale(
  lastB: Date | null | undefined,
  lastC: Date | null | undefined,
  tierBIntervalMs: number,
  now: Date = new Date(),
): boolean {
  const newest = [lastB, lastC].filter((date): date is Date => date instanceof Date).sort((a, b) => +b - +a)[0];
  return isStale(newest, tierBIntervalMs, now);
}
