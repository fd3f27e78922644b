// The worker's subscription cache in the shape the database keeps it (so the web process can read it), and the
// NOTIFICATIONS capability verdict it implies (spec: Capability classification). Neither opens a connection.
import type { SubscriptionState } from '../../broker/native/subscription-state.ts';

export type StoredSubscriptionState = 'established' | 'refused' | 'unknown';

export interface StoredSubscription {
  readonly state: StoredSubscriptionState;
  readonly reason: string | null;
  readonly cause: string | null;
  readonly snippet: string | null;
  /** When the current state began (a refusal keeps the start of the outage). */
  readonly since: Date | null;
}

export function storedSubscriptionOf(state: SubscriptionState, now: Date): StoredSubscription {
  if (state === 'established') return { state, reason: null, cause: null, snippet: null, since: now };
  if (state === 'unknown') return { state, reason: null, cause: null, snippet: null, since: null };
  return {
    state: 'refused',
    reason: state.refused,
    cause: state.cause,
    snippet: state.snippet,
    since: new Date(state.since),
  };
}

/** Same state, reason and cause: a row that needs no write and no `health` signal. */
export function isSameSubscription(a: StoredSubscription, b: StoredSubscription): boolean {
  return a.state === b.state && a.reason === b.reason && a.cause === b.cause;
}

export interface CapabilityVerdict {
  readonly value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN';
  readonly detail: string;
  readonly snippet: string | null;
}

/**
 * NOTIFICATIONS from the subscriptions of the serving nodes: AVAILABLE when at least one is established,
 * UNAVAILABLE with the refusal's reason and broker snippet when none is and one was refused, otherwise UNKNOWN.
 */
export function notificationsCapability(
  subscriptions: ReadonlyArray<StoredSubscription & { readonly node: string }>,
): CapabilityVerdict {
  const established = subscriptions.filter((subscription) => subscription.state === 'established');
  if (established.length > 0) {
    return {
      value: 'AVAILABLE',
      detail: `notification subscription established on ${established.map((s) => s.node).join(', ')}`,
      snippet: null,
    };
  }
  const refused = subscriptions.find((subscription) => subscription.state === 'refused');
  if (refused) {
    return {
      value: 'UNAVAILABLE',
      detail: `${refused.node}: ${refused.reason ?? 'the notification subscription was refused'}`,
      snippet: refused.snippet,
    };
  }
  return {
    value: 'UNKNOWN',
    detail:
      subscriptions.length === 0
        ? 'no serving node known yet (before the first tier-A scrape)'
        : 'the notification subscription is being opened',
    snippet: null,
  };
}
