// The correlator's vocabulary (spec: States and transitions, Request-reply correlation). Pure data: the correlator,
// its feeds and its store share it, and the unit tests drive the correlator with it alone.

/** A correlation's state; AWAITING_REPLY is the only one that is not final. */
export type RrState =
  'AWAITING_REPLY' | 'COMPLETED' | 'TIMED_OUT' | 'ORPHANED' | 'RESPONDER_DROPPED' | 'ORPHANED_REPLY';

export const RR_STATES: readonly RrState[] = [
  'AWAITING_REPLY',
  'COMPLETED',
  'TIMED_OUT',
  'ORPHANED',
  'RESPONDER_DROPPED',
  'ORPHANED_REPLY',
];

/** Replies to one durable queue joined on the correlation id, or to a temporary queue per requester. */
export type RrPattern = 'shared-reply' | 'temporary-queue';

/** Where the correlator saw the message: a capture tap (every routed message) or a browse (what stayed long enough). */
type RrFeed = 'capture' | 'sample';

/**
 * Which clock a latency was measured on: the messages' own send times (client clocks, or the broker's ingress
 * stamp), or when Flotilla saw them (includes the feed's lag; a temporary queue's reply is seen only by polling).
 */
export type RrClock = 'message' | 'observed';

/** A message a feed saw on an address, in clear (the store masks what it keeps). */
export interface ObservedMessage {
  readonly nodeId: string;
  readonly address: string;
  /** The message id (AMQP message-id or JMSMessageID without its `ID:`). */
  readonly messageId: string | null;
  readonly correlationId: string | null;
  /** As sent: a bare address, or `queue://…` / `temp-queue://…` from a core JMS client. */
  readonly replyTo: string | null;
  /** The message's own send time (epoch ms) when it carries one. */
  readonly sentAt: number | null;
  /** When the feed handed it over (epoch ms). */
  readonly seenAt: number;
  /** Absolute expiry (epoch ms); null when it never expires. */
  readonly expiresAt: number | null;
  readonly feed: RrFeed;
  /** Headers and properties as sent, kept (masked) with a correlation that does not complete. */
  readonly headers: Readonly<Record<string, unknown>>;
  /** The broker's own id of the message on the node, for a link to it while it can still be browsed. */
  readonly brokerMessageId?: string | null;
}

/** What the correlator settled (or started): one row of rr_event. */
export interface Correlation {
  readonly key: string;
  readonly address: string;
  readonly replyAddress: string | null;
  readonly pattern: RrPattern;
  readonly state: RrState;
  readonly correlationId: string | null;
  readonly messageId: string | null;
  readonly nodeId: string;
  readonly feed: RrFeed;
  /** When the request was sent (reply with no request: when the reply was). */
  readonly requestAt: number;
  readonly replyAt: number | null;
  readonly latencyMs: number | null;
  readonly clock: RrClock;
  readonly deadlineAt: number | null;
  /** Where the deadline came from. */
  readonly deadlineSource: 'expiration' | 'expectation' | 'default' | null;
  /** When the correlator reached this state (epoch ms). */
  readonly stateAt: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly brokerMessageId: string | null;
  /** A word on how the state was inferred (what the correlator could and could not see). */
  readonly note: string | null;
}

/** A request's deadline rule for an address: the declared expectation, else the default. */
export interface AddressExpectation {
  readonly expectedLatencyMs: number | null;
  readonly deadlineMs: number;
  readonly replyAddress: string | null;
  readonly source: 'expectation' | 'default';
}
