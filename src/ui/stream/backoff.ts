export interface BackoffPolicy {
  readonly baseMs: number;
  readonly capMs: number;
}

export const STREAM_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 15_000 };

/**
 * Delay before reconnect attempt number `failures` (1 = first failure): exponential, capped, with "equal jitter"
 * (half fixed, half random) so a restarted server is not hit by every console at the same instant.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
