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
    expiration: isoOrNull(message.properties.absoluteExpiryTime),
    correlation_id: idText(message.properties.correlationId),
    reply_to: message.properties.replyTo ?? null,
    clusterId: tap.clusterId,
    nodeId: tap.nodeId,
    origin: 'capture',
    subscriptionId: tap.subscriptionId,
    properties,
    body: bodyOf(message),
    contentType: message.properties.contentType,
  };
}
