// A message drained from a capture queue, as the index writer takes it: still in clear (the writer governs and seals
// it before anything is stored). The address is the subscription's source address, not the capture queue's: the
// divert changed the copy's address. Capture is address-scoped, so `queue` is null.
import type { NativeMessage, TypedValue } from '@/modules/platform/broker/index.ts';
import type { PropertyValue } from '../message-row.ts';
import type { CapturedMessage } from '../index/stored-message.ts';
import type { LiveTap } from './capture-reconciler.ts';

function scalar(value: TypedValue | undefined): PropertyValue {
  if (!value) return null;
  const plain = value.value;
  if (plain === null || typeof plain === 'string' || typeof plain === 'number' || typeof plain === 'boolean')
    return plain;
  return JSON.stringify(plain);
}

function idText(value: TypedValue | undefined): string | null {
  const plain = scalar(value);
  return plain === null ? null : String(plain);
}

function bodyOf(message: NativeMessage): unknown {
  const { body } = message;
  if (body.encoding === 'empty') return null;
  const bytes = Buffer.from(body.base64, 'base64');
  if (body.encoding === 'text') return bytes.toString('utf8');
  if (body.encoding === 'json') {
    const text = bytes.toString('utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return bytes;
}

const isoOrNull = (millis: number | undefined) => (millis === undefined ? null : new Date(millis).toISOString());

/** How far the broker's routing of a copy may be from its send time and its capture, for the test below. */
const ROUTING_SLACK_MS = 1_000;

/**
 * The message's own expiration, or undefined when it had none: a copy of such a message gets the tap address's
 * expiry delay from the broker at routing (between the message's send and its capture). A message whose own time to
 * live equals the tap's expiry delay to the second is read as having none.
 */
function ownExpiration(tap: LiveTap, message: NativeMessage, capturedAt: Date): number | undefined {
  const expiry = message.properties.absoluteExpiryTime;
  if (expiry === undefined) return undefined;
  const routedAt = expiry - tap.expiryDelayMs;
  const earliest = (message.properties.creationTime ?? capturedAt.getTime()) - ROUTING_SLACK_MS;
  return routedAt >= earliest && routedAt <= capturedAt.getTime() + ROUTING_SLACK_MS ? undefined : expiry;
}

export function capturedMessageOf(tap: LiveTap, message: NativeMessage, capturedAt: Date): CapturedMessage {
  const properties = Object.fromEntries(
    Object.entries(message.applicationProperties).map(([key, value]) => [key, scalar(value)]),
  );
  return {
    id: idText(message.properties.messageId) ?? '',
    address: tap.address,
    queue: null,
    node: tap.nodeName,
    time: isoOrNull(message.properties.creationTime) ?? capturedAt.toISOString(),
    priority: message.header.priority,
    durable: message.header.durable,
    expiration: isoOrNull(ownExpiration(tap, message, capturedAt)),
    correlation_id: idText(message.properties.correlationId),
    reply_to: message.properties.replyTo ?? null,
    clusterId: tap.clusterId,
    nodeId: tap.nodeId,
    origin: 'capture',
    subscriptionId: tap.subscriptionId,
    properties,
    body: bodyOf(message),
    contentType: message.properties.contentType,
    sentAt: isoOrNull(message.properties.creationTime),
    receivedAt: capturedAt.toISOString(),
  };
}
