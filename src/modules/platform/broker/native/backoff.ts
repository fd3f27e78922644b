// Reconnect delays: exponential, capped, with "full jitter" so many nodes that lost the same network do not
// come back in lock-step and hammer the brokers at the same instant.
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
