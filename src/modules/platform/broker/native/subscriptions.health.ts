// The `subscriptions` health indicator: per node whether its notification subscription is established
// and, if not, why and what broker configuration would fix it. It reads the cache of the process it runs
// in; the subscriptions themselves live in the worker.
import type { HealthComponent } from '@/modules/kernel/plugin/index.ts';
import { allSubscriptionStates } from './subscription-state.ts';

export function check(): Promise<HealthComponent> {
  const nodes: Record<string, unknown> = {};
  let established = 0;
  let down = 0;
  for (const [nodeKey, state] of allSubscriptionStates()) {
    if (state === 'established') established += 1;
    else if (state !== 'unknown') down += 1;
    nodes[nodeKey] =
      typeof state === 'string'
        ? { state }
        : {
            state: 'not-established',
            reason: state.refused,
            cause: state.cause,
            since: state.since,
            snippet: state.snippet,
          };
  }
  // Nothing subscribed in this process is nothing to worry about (no cluster yet, or this is the web process);
  // a subscription that exists but is not established is.
  const status = down > 0 ? 'DEGRADED' : Object.keys(nodes).length === 0 || established > 0 ? 'UP' : 'UNKNOWN';
  return Promise.resolve({ status, details: { nodes, established, notEstablished: down } });
}
