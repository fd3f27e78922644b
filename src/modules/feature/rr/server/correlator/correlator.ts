// The request-reply correlator of one cluster (spec: Request-reply tracing; States and transitions). Pure and
// synchronous: feeds hand it messages and broker notifications, the runtime asks it what is due and answers with what
// only the broker can tell (is a request still on its queue?), and every transition comes back as a Correlation for
// the store. Two patterns share it:
// - a shared reply queue: a request names a durable reply address; its reply carries the request's correlation id
//   (or its message id). Matched → COMPLETED; nothing by the deadline → TIMED_OUT (RESPONDER_DROPPED when the
//   request is gone from its queue: someone acknowledged it and answered nothing); a reply nobody asked → ORPHANED_REPLY.
// - temporary reply queues: the reply goes to the requester's own queue, which no tap sees. The runtime polls the
//   queue's MessagesAdded while the request waits (a reply → COMPLETED), and its BINDING_REMOVED settles it: the
//   request still on its queue → ORPHANED (the requester went first), gone → COMPLETED by inference.
import type { AddressExpectation, Correlation, ObservedMessage, RrClock, RrPattern, RrState } from './rr-types.ts';

export interface CorrelatorOptions {
  /** The deadline rule of a request address (the declared expectation, else the default). */
  readonly expectationFor: (address: string) => AddressExpectation;
  /** Whether an address is a declared reply address (replies there with no request are ORPHANED_REPLY). */
  readonly declaredReplyAddress: (address: string) => boolean;
  /** How long a reply with no request is held in case its request is still on its way (its tap may lag). */
  readonly orphanReplyGraceMs: number;
  /** At most this many requests wait at once; past it the oldest is settled as TIMED_OUT with a note. */
  readonly maxAwaiting: number;
}

/** A request that waits for its reply. */
export interface AwaitingRequest {
  readonly key: string;
  readonly request: ObservedMessage;
  readonly replyAddress: string | null;
  readonly pattern: RrPattern;
  readonly requestAt: number;
  readonly deadlineAt: number;
  readonly deadlineSource: Correlation['deadlineSource'];
}

const REPLY_TO_SCHEMES = /^(?:temp-queue|temp-topic|queue|topic):\/\//;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SETTLED_MEMORY = 50_000;

/** The reply address a request names, without a core JMS client's scheme. */
function replyAddressOf(replyTo: string | null): string | null {
  if (!replyTo) return null;
  return replyTo.replace(REPLY_TO_SCHEMES, '') || null;
}

/** A temporary queue: core JMS says so in the scheme; AMQP clients and core name it with a bare UUID. */
function isTemporaryReplyTo(replyTo: string): boolean {
  if (replyTo.startsWith('temp-queue://') || replyTo.startsWith('temp-topic://')) return true;
  return UUID.test(replyAddressOf(replyTo) ?? '');
}

function withoutIdPrefix(id: string | null): string | null {
  if (!id) return null;
  return id.startsWith('ID:') ? id.slice(3) : id;
}

function latencyOf(request: ObservedMessage, reply: ObservedMessage): { latencyMs: number; clock: RrClock } {
  if (request.sentAt !== null && reply.sentAt !== null && reply.sentAt >= request.sentAt) {
    return { latencyMs: reply.sentAt - request.sentAt, clock: 'message' };
  }
  return { latencyMs: Math.max(0, reply.seenAt - request.seenAt), clock: 'observed' };
}

export class Correlator {
  private readonly awaiting = new Map<string, AwaitingRequest>();
  /** Message id and correlation id → the awaiting request's key. */
  private readonly aliases = new Map<string, string>();
  /** Temporary reply address → keys of the requests waiting on it. */
  private readonly onTemporaryQueue = new Map<string, Set<string>>();
  /** Reply addresses learned from requests (reply_to of shared-reply requests). */
  private readonly learnedReplyAddresses = new Set<string>();
  /** Replies that matched nothing yet, by correlation id. */
  private readonly heldReplies = new Map<string, { reply: ObservedMessage; until: number }>();
  /** Ids of requests settled lately: a duplicate (a second feed, a re-browse) or a late reply is not new traffic. */
  private readonly settled = new Map<string, RrState>();

  constructor(private readonly options: CorrelatorOptions) {}

  get awaitingCount(): number {
    return this.awaiting.size;
  }

  /** The requests still waiting (the runtime polls their temporary queues and probes their request queues). */
  awaitingRequests(): AwaitingRequest[] {
    return [...this.awaiting.values()];
  }

  /** Whether replies to this address are traffic the correlator should see (learned or declared). */
  isReplyAddress(address: string): boolean {
    return this.learnedReplyAddresses.has(address) || this.options.declaredReplyAddress(address);
  }

  /** A message seen on an address: a request (it names a reply address), a reply (it carries a correlation id), or neither. */
  message(message: ObservedMessage): Correlation[] {
    if (message.replyTo) return this.request(message);
    if (message.correlationId) return this.reply(message);
    return [];
  }

  private request(message: ObservedMessage): Correlation[] {
    const correlationId = message.correlationId;
    const messageId = withoutIdPrefix(message.messageId);
    const key = correlationId ?? messageId ?? `${message.nodeId}/${message.address}/${message.seenAt}`;
    if (this.aliases.has(key) || this.settled.has(key)) return [];
    const replyTo = message.replyTo ?? '';
    const replyAddress = replyAddressOf(replyTo);
    const pattern: RrPattern = isTemporaryReplyTo(replyTo) ? 'temporary-queue' : 'shared-reply';
    if (pattern === 'shared-reply' && replyAddress) this.learnedReplyAddresses.add(replyAddress);
    const requestAt = message.sentAt ?? message.seenAt;
    const expectation = this.options.expectationFor(message.address);
    const expiresAt = message.expiresAt !== null && message.expiresAt > 0 ? message.expiresAt : null;
    const awaiting: AwaitingRequest = {
      key,
      request: message,
      replyAddress,
      pattern,
      requestAt,
      deadlineAt: expiresAt ?? requestAt + expectation.deadlineMs,
      deadlineSource: expiresAt === null ? expectation.source : 'expiration',
    };
    const out: Correlation[] = [];
    if (this.awaiting.size >= this.options.maxAwaiting) out.push(...this.evictOldest(message.seenAt));
    this.awaiting.set(key, awaiting);
    for (const alias of [key, correlationId, messageId]) if (alias) this.aliases.set(alias, key);
    if (pattern === 'temporary-queue' && replyAddress) {
      const keys = this.onTemporaryQueue.get(replyAddress) ?? new Set<string>();
      this.onTemporaryQueue.set(replyAddress, keys.add(key));
    }
    out.push(this.correlation(awaiting, 'AWAITING_REPLY', message.seenAt, {}));
    // Its reply may have come first (the reply address's tap drained sooner).
    for (const alias of [correlationId, messageId]) {
      const held = alias ? this.heldReplies.get(alias) : undefined;
      if (held && alias) {
        this.heldReplies.delete(alias);
        out.push(...this.complete(awaiting, held.reply));
        break;
      }
    }
    return out;
  }

  private reply(message: ObservedMessage): Correlation[] {
    const correlationId = message.correlationId ?? '';
    const key = this.aliases.get(correlationId) ?? this.aliases.get(withoutIdPrefix(correlationId) ?? '');
    const awaiting = key ? this.awaiting.get(key) : undefined;
    if (awaiting) return this.complete(awaiting, message);
    // A late reply to a request already settled (TIMED_OUT, say) is not an orphan: its request was seen.
    if (this.settled.has(correlationId)) return [];
    // Held even where the address is not (yet) known to carry replies: a request naming it may still arrive. Seen
    // again (a sampler re-browsing it), it keeps its first grace.
    if (!this.heldReplies.has(correlationId)) {
      this.heldReplies.set(correlationId, { reply: message, until: message.seenAt + this.options.orphanReplyGraceMs });
    }
    return [];
  }

  private complete(awaiting: AwaitingRequest, reply: ObservedMessage): Correlation[] {
    const { latencyMs, clock } = latencyOf(awaiting.request, reply);
    this.forget(awaiting, 'COMPLETED');
    return [
      this.correlation(awaiting, 'COMPLETED', reply.seenAt, {
        replyAt: reply.sentAt ?? reply.seenAt,
        latencyMs,
        clock,
      }),
    ];
  }

  /** A temporary queue's MessagesAdded grew while its request waited: the reply reached the requester's queue. */
  replyReachedTemporaryQueue(address: string, at: number): Correlation[] {
    const keys = [...(this.onTemporaryQueue.get(address) ?? [])];
    const oldest = keys
      .map((key) => this.awaiting.get(key))
      .filter((awaiting): awaiting is AwaitingRequest => awaiting !== undefined)
      .sort((a, b) => a.requestAt - b.requestAt)[0];
    if (!oldest) return [];
    this.forget(oldest, 'COMPLETED');
    return [
      this.correlation(oldest, 'COMPLETED', at, {
        replyAt: at,
        latencyMs: Math.max(0, at - oldest.request.seenAt),
        clock: 'observed',
        note: 'The reply went to a temporary queue: seen by polling its message count, so the latency is as coarse as the poll.',
      }),
    ];
  }

  /** The requests waiting on a temporary queue that was just removed (the runtime then asks where each request is). */
  temporaryQueueRemoved(address: string): AwaitingRequest[] {
    return [...(this.onTemporaryQueue.get(address) ?? [])]
      .map((key) => this.awaiting.get(key))
      .filter((awaiting): awaiting is AwaitingRequest => awaiting !== undefined);
  }

  /**
   * A request whose temporary reply queue is gone: still on its request queue (not acknowledged) → ORPHANED, the
   * requester went before any reply; acknowledged → COMPLETED by inference (the requester left after its answer).
   */
  settleRemovedQueue(key: string, requestStillQueued: boolean | undefined, at: number): Correlation[] {
    const awaiting = this.awaiting.get(key);
    if (!awaiting) return [];
    this.forget(awaiting, requestStillQueued === false ? 'COMPLETED' : 'ORPHANED');
    if (requestStillQueued === false) {
      return [
        this.correlation(awaiting, 'COMPLETED', at, {
          replyAt: at,
          latencyMs: Math.max(0, at - awaiting.requestAt),
          clock: 'observed',
          note: 'Inferred: the request was acknowledged and the requester then removed its temporary queue; the latency is an upper bound.',
        }),
      ];
    }
    return [
      this.correlation(awaiting, 'ORPHANED', at, {
        note:
          requestStillQueued === undefined
            ? 'The temporary reply queue was removed before any reply was seen (whether the request was still queued could not be read).'
            : 'The temporary reply queue was removed while the request was still unacknowledged: the requester went first.',
      }),
    ];
  }

  /** Requests past their deadline, for the runtime to ask whether each is still on its queue. */
  due(now: number): AwaitingRequest[] {
    return [...this.awaiting.values()].filter((awaiting) => awaiting.deadlineAt <= now);
  }

  /**
   * Settles a request past its deadline: acknowledged (gone from its queue) and no reply → RESPONDER_DROPPED;
   * still queued or being delivered, or unknown → TIMED_OUT.
   */
  settleDue(key: string, acknowledged: boolean | undefined, now: number): Correlation[] {
    const awaiting = this.awaiting.get(key);
    if (!awaiting || awaiting.deadlineAt > now) return [];
    const state: RrState = acknowledged === true ? 'RESPONDER_DROPPED' : 'TIMED_OUT';
    this.forget(awaiting, state);
    const note =
      state === 'RESPONDER_DROPPED'
        ? 'The request left its queue (a responder acknowledged it) and no reply came by the deadline.'
        : acknowledged === undefined
          ? 'No reply by the deadline; whether a responder had acknowledged the request could not be read.'
          : 'No reply by the deadline; the request was still queued or being delivered.';
    return [this.correlation(awaiting, state, now, { note })];
  }

  /** Replies held past their grace with no request: ORPHANED_REPLY (only on addresses known to carry replies). */
  expireHeldReplies(now: number): Correlation[] {
    const out: Correlation[] = [];
    for (const [correlationId, held] of this.heldReplies) {
      if (held.until > now) continue;
      this.heldReplies.delete(correlationId);
      if (!this.isReplyAddress(held.reply.address)) continue;
      this.remember(correlationId, 'ORPHANED_REPLY');
      const reply = held.reply;
      out.push({
        key: correlationId,
        address: reply.address,
        replyAddress: reply.address,
        pattern: 'shared-reply',
        state: 'ORPHANED_REPLY',
        correlationId,
        messageId: withoutIdPrefix(reply.messageId),
        nodeId: reply.nodeId,
        feed: reply.feed,
        requestAt: reply.sentAt ?? reply.seenAt,
        replyAt: reply.sentAt ?? reply.seenAt,
        latencyMs: null,
        clock: reply.sentAt === null ? 'observed' : 'message',
        deadlineAt: null,
        deadlineSource: null,
        stateAt: now,
        headers: reply.headers,
        brokerMessageId: reply.brokerMessageId ?? null,
        note: 'A reply whose correlation id matches no request seen on this cluster.',
      });
    }
    return out;
  }

  private evictOldest(now: number): Correlation[] {
    // A Map keeps insertion order: its first entry is the request seen first (no sort of every waiting one).
    const oldest = this.awaiting.values().next().value;
    if (!oldest) return [];
    this.forget(oldest, 'TIMED_OUT');
    return [
      this.correlation(oldest, 'TIMED_OUT', now, {
        note: `Settled early: more than ${this.options.maxAwaiting} requests were waiting on this cluster.`,
      }),
    ];
  }

  private forget(awaiting: AwaitingRequest, state: RrState): void {
    this.awaiting.delete(awaiting.key);
    const messageId = withoutIdPrefix(awaiting.request.messageId);
    for (const alias of [awaiting.key, awaiting.request.correlationId, messageId]) {
      if (!alias) continue;
      this.aliases.delete(alias);
      this.remember(alias, state);
    }
    if (awaiting.replyAddress) {
      const keys = this.onTemporaryQueue.get(awaiting.replyAddress);
      keys?.delete(awaiting.key);
      if (keys?.size === 0) this.onTemporaryQueue.delete(awaiting.replyAddress);
    }
  }

  private remember(id: string, state: RrState): void {
    this.settled.set(id, state);
    if (this.settled.size > SETTLED_MEMORY) {
      const first = this.settled.keys().next();
      if (!first.done) this.settled.delete(first.value);
    }
  }

  private correlation(
    awaiting: AwaitingRequest,
    state: RrState,
    at: number,
    extra: Partial<Pick<Correlation, 'replyAt' | 'latencyMs' | 'clock' | 'note'>>,
  ): Correlation {
    const { request } = awaiting;
    return {
      key: awaiting.key,
      address: request.address,
      replyAddress: awaiting.replyAddress,
      pattern: awaiting.pattern,
      state,
      correlationId: request.correlationId,
      messageId: withoutIdPrefix(request.messageId),
      nodeId: request.nodeId,
      feed: request.feed,
      requestAt: awaiting.requestAt,
      replyAt: extra.replyAt ?? null,
      latencyMs: extra.latencyMs ?? null,
      clock: extra.clock ?? (request.sentAt === null ? 'observed' : 'message'),
      deadlineAt: awaiting.deadlineAt,
      deadlineSource: awaiting.deadlineSource,
      stateAt: at,
      headers: request.headers,
      brokerMessageId: request.brokerMessageId ?? null,
      note: extra.note ?? null,
    };
  }
}
