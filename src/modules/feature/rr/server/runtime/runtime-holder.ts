// The worker's one RrRuntime, reachable from the capture bus's listener and the broker event consumer, which the
// worker loads apart from the rr worker service. Before the service started (or after it stopped) they drop what
// they get: the correlator holds no state across a worker's life anyway.
import type { RrRuntime } from './rr-runtime.ts';

let current: RrRuntime | undefined;

export function installRuntime(runtime: RrRuntime | undefined): void {
  current = runtime;
}

export function currentRuntime(): RrRuntime | undefined {
  return current;
}
