// When a tier's next tick is due. Each tick is due one interval after the last one was due, not after its timer
// ran: a busy event loop makes every timer a little late, and re-arming from the moment it ran added that lateness to
// every interval (a healthy node's tier B at 500 ms ran 10 % slow on a loaded two-core machine, issue 34's cadence
// check). A schedule more than an interval behind (the process was paused) starts again from now instead of
// running the missed ticks back to back.
export function nextDueAt(lastDueAt: number, intervalMs: number, now: number): number {
  const due = lastDueAt + intervalMs;
  return due < now - intervalMs ? now : due;
}
