// What the feeds hand the correlator: a captured message (sql's capture bus), or a message browsed by the rr sampler
// or held by a consumer, turned into an ObservedMessage; and the ids a browse shows, to tell whether a request is
// still on its queue. A core JMS message keeps its correlation id and reply-to as properties, an AMQP one in its
// properties section; the message id is the browse's `userID` without its `ID:`.
import { contentOfBrowsed } from '@/modules/platform/broker/index.ts';
import type { ObservedMessage } from '../correlator/rr-types.ts';

/** The capture bus's message, as far as the correlator reads it (sql's CapturedMessage, structurally). */
export interface CapturedShape {
  readonly id: string;
  readonly address: string;
  readonly clusterId: string;
  readonly nodeId: string;
  readonly correlation_id: string | null;
  readonly reply_to: string | null;
  readonly expiration: string | null;
  readonly time: string;
  readonly sentAt?: string | null;
  readonly receivedAt?: string;
  readonly properties: Readonly<Record<string, unknown>>;
}

const millis = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

export function observedFromCaptured(message: CapturedShape, now: number): ObservedMessage {
  return {
    nodeId: message.nodeId,
    address: message.address,
    messageId: message.id || null,
    correlationId: message.correlation_id,
    replyTo: message.reply_to,
    sentAt: message.sentAt === undefined ? millis(message.time) : millis(message.sentAt),
    seenAt: millis(message.receivedAt) ?? now,
    expiresAt: millis(message.expiration),
    feed: 'capture',
    headers: message.properties,
  };
}

function firstText(records: ReadonlyArray<Readonly<Record<string, unknown>>>, names: readonly string[]) {
  for (const record of records)
    for (const name of names) {
      const value = record[name];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
    }
  return null;
}

const withoutIdPrefix = (id: string | null) => (id?.startsWith('ID:') ? id.slice(3) : id);

/** A browsed (or delivering) message map of `address` on a node. */
export function observedFromBrowsed(
  raw: Readonly<Record<string, unknown>>,
  place: { readonly nodeId: string; readonly address: string },
  seenAt: number,
): ObservedMessage {
  const { headers, properties } = contentOfBrowsed(raw);
  // A delivering message's map (toMap) is flat: its fields sit at the top, AMQP ones named by section.
  const sources = [headers, properties, raw];
  const timestamp = typeof raw.timestamp === 'number' && raw.timestamp > 0 ? raw.timestamp : null;
  const expiration = typeof raw.expiration === 'number' && raw.expiration > 0 ? raw.expiration : null;
  // A core JMS message's correlation id and reply-to are properties: kept as what they are, not twice.
  const rest = Object.fromEntries(
    Object.entries(properties).filter(([name]) => name !== 'JMSCorrelationID' && name !== 'JMSReplyTo'),
  );
  return {
    nodeId: place.nodeId,
    address: place.address,
    messageId: withoutIdPrefix(firstText(sources, ['messageId', 'userID', 'properties.messageId'])),
    correlationId: firstText(sources, ['correlationId', 'JMSCorrelationID', 'properties.correlationId']),
    replyTo: firstText(sources, ['replyTo', 'JMSReplyTo', 'properties.replyTo']),
    sentAt: timestamp,
    seenAt,
    expiresAt: expiration,
    feed: 'sample',
    headers: rest,
    brokerMessageId:
      typeof raw.messageID === 'number' || typeof raw.messageID === 'string' ? String(raw.messageID) : null,
  };
}

/** Every id a message map shows (message id and correlation id), for a presence check. */
export function idsOfBrowsed(raw: Readonly<Record<string, unknown>>): string[] {
  const observed = observedFromBrowsed(raw, { nodeId: '', address: '' }, 0);
  return [observed.messageId, observed.correlationId].filter((id): id is string => id !== null);
}
