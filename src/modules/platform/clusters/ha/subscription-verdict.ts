// The worker's subscription cache in the shape the database keeps it (so the web process can read it), and the
// NOTIFICATIONS and MESSAGE_IO capability verdicts they imply (spec: Capability classification). Neither opens a connection.
import type { SubscriptionState } from '@/modules/platform/broker/index.ts';
import type { CapabilityVerdict } from '../server/capabilities/capability-ledger.ts';

type StoredSubscriptionState = 'established' | 'refused' | 'unknown';

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

export type { CapabilityVerdict } from '../server/capabilities/capability-ledger.ts';

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

/** Refusals that happen before any link is attached: the native connection cannot be opened, kept or even tried. */
const CONNECTION_CAUSES = new Set([
  'unreachable',
  'connection-lost',
  'tls',
  'authentication',
  'protocol-not-accepted',
  // No AMQP URL is known for the node, so no connection can be tried.
  'configuration',
]);

/**
 * MESSAGE_IO from the same subscriptions: the notification subscription is a native (AMQP) connection to the node,
 * so while one is established, browse and send have a channel (AVAILABLE). When none is and a connection-level
 * refusal (port closed, TLS, login, protocol) explains why, they have none (UNAVAILABLE, with the acceptor or user
 * snippet). A refused notification link alone proves the connection opens but says nothing about the permission
 * to send or browse other queues, so that stays UNKNOWN and says so.
 */
export function messageIoCapability(
  subscriptions: ReadonlyArray<StoredSubscription & { readonly node: string }>,
): CapabilityVerdict {
  const established = subscriptions.filter((subscription) => subscription.state === 'established');
  const down = subscriptions.filter(
    (subscription) => subscription.state === 'refused' && CONNECTION_CAUSES.has(subscription.cause ?? ''),
  );
  if (established.length > 0) {
    const lost = down.length > 0 ? `; no native connection to ${down.map((s) => s.node).join(', ')}` : '';
    return {
      value: 'AVAILABLE',
      detail: `native AMQP connection established to ${established.map((s) => s.node).join(', ')}${lost}`,
      snippet: null,
    };
  }
  const [first] = down;
  if (first) {
    return {
      value: 'UNAVAILABLE',
      detail: `${first.node}: no native AMQP connection (${first.reason ?? first.cause ?? 'refused'})`,
      snippet: first.snippet,
    };
  }
  const linkRefused = subscriptions.find((subscription) => subscription.state === 'refused');
  return {
    value: 'UNKNOWN',
    detail: linkRefused
      ? `${linkRefused.node}: the native connection opens, but the notification link was refused, so the permission to send and browse is not confirmed`
      : subscriptions.length === 0
        ? 'no serving node known yet (before the first tier-A scrape)'
        : 'the native connection is being opened',
    snippet: null,
  };
}
