// "Where would this message go?": the question (a probe message) and the answer, per node and for the cluster. Pure
// data shared by the API and the screens.
import type { DivertRoutingType, QueueRoutingType } from '../routing-view.ts';

interface ProbeHeaders {
  /** JMSPriority / AMQPriority, 0-9; 4 when not given (every protocol's default). */
  readonly priority?: number;
  /** JMSDeliveryMode PERSISTENT / AMQDurable DURABLE; not known when not given (the protocols' defaults differ). */
  readonly durable?: boolean;
  /** JMSType (AMQP subject). */
  readonly type?: string;
  readonly correlationId?: string;
  /** JMSMessageID / AMQUserID; the broker or client assigns one when not given, so it is not known. */
  readonly messageId?: string;
  /** JMSXGroupID / AMQGroupID. */
  readonly groupId?: string;
  /** JMSXUserID (AMQP user id). */
  readonly userId?: string;
  /** JMSTimestamp / AMQTimestamp, ms since the epoch; not known when not given. */
  readonly timestamp?: number;
  /** JMSExpiration / AMQExpiration, ms since the epoch; 0 (never) when not given. */
  readonly expiration?: number;
}

export type ProbeValue = string | number | boolean | null;

export interface ProbeMessage {
  /** The address sent to; `address::queue` (a fully qualified queue name) reaches that queue only. */
  readonly address: string;
  /** Unset: as a producer that sends without a routing type (anycast and multicast queues alike). */
  readonly routingType?: QueueRoutingType;
  readonly properties: Readonly<Record<string, ProbeValue>>;
  readonly headers: ProbeHeaders;
}

export const WHERE_NOTE_KINDS = [
  'routing-type',
  'exclusive-divert',
  'divert',
  'round-robin',
  'filter',
  'invalid-filter',
  'jms-header',
  'no-route',
  'dead-letter',
  'auto-create',
  'address-missing',
  'loop',
  'bridge',
  'transformer',
  'unknowable',
  'body',
  'cluster',
  'redistribution',
] as const;

type WhereNoteKind = (typeof WHERE_NOTE_KINDS)[number];

export interface WhereNote {
  readonly kind: WhereNoteKind;
  readonly text: string;
  /** The graph item it is about (`<kind>:<name>`), when one. */
  readonly itemId?: string;
}

export interface WhereQueue {
  readonly itemId: string;
  readonly name: string;
  /** The address the queue is bound to (a wildcard pattern when it matched by wildcard). */
  readonly address: string;
  readonly routingType: QueueRoutingType;
  /** How the message got there: sent to its address, through a divert, or to the dead-letter address. */
  readonly via: 'address' | 'divert' | 'dead-letter';
  /** `every`: the queue gets a copy; `one-of`: one queue of its round-robin group (same `group`) gets it. */
  readonly share: 'every' | 'one-of';
  readonly group: string;
  /** False when a filter on the way read what cannot be known here (a transformer, AMQSize, the body). */
  readonly certain: boolean;
}

export interface WhereDivert {
  readonly itemId: string;
  readonly name: string;
  readonly address: string;
  readonly forwardingAddress: string;
  readonly exclusive: boolean;
  readonly routingType: DivertRoutingType;
  readonly transformerClassName: string | null;
}

/**
 * routed: at least one queue gets it; dead-lettered: no queue took it, the dead-letter address did; auto-created: a
 * queue would be created for it; dropped: nothing takes it; refused: the broker refuses the send; address-missing: the
 * address does not exist on the node.
 */
export const WHERE_OUTCOMES = [
  'routed',
  'dead-lettered',
  'auto-created',
  'dropped',
  'refused',
  'address-missing',
] as const;

export type WhereOutcome = (typeof WHERE_OUTCOMES)[number];

export interface WhereNodeAnswer {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly outcome: WhereOutcome;
  readonly receivingQueues: readonly WhereQueue[];
  /** Ids of the edges travelled (routing-graph edge ids), for highlighting. */
  readonly path: readonly string[];
  /** Ids of the items travelled (addresses, diverts, queues, bridges). */
  readonly items: readonly string[];
  readonly diverted: readonly WhereDivert[];
  /** What the broker does, in words. */
  readonly notes: readonly WhereNote[];
  /** What this answer cannot know: transformers, values assigned on send, other nodes, bridges' far side. */
  readonly unknowns: readonly WhereNote[];
}

export interface WhereDifference {
  readonly text: string;
  /** The nodes the statement is about. */
  readonly nodeIds: readonly string[];
}

export interface WhereAnswer {
  readonly address: string;
  readonly nodes: readonly WhereNodeAnswer[];
  /** Whether every node routes it alike; the differences say how they do not. */
  readonly agree: boolean;
  readonly differences: readonly WhereDifference[];
  /** Item and edge ids travelled on any node. */
  readonly highlighted: readonly string[];
  /** Notes about the question itself (the routing type left unset). */
  readonly notes: readonly WhereNote[];
}
