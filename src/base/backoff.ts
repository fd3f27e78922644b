// Reconnect delays, the one rule for every reconnecting client (the native broker connections and the console's
// stream): exponential, capped, with "equal jitter" — half of the delay fixed, half random — so many clients that
// lost the same server do not come back in lock-step, and none retries in a busy loop.
export interface BackoffPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/** Delay before reconnect attempt `attempt` (0 = first retry); `random` is injectable for tests. */
export function reconnectDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** exponent);
  // Never below half the ceiling: a zero delay would turn a refused connection into a busy loop.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
