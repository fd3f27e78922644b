// A message drained from a capture queue, as the index writer takes it: still in clear (the writer governs and seals
// it before anything is stored). The address is the subscription's source address, not the capture queue's: the
// divert changed the copy's address. Capture is address-scoped, so `queue` is null.
import { createHash } from 'node:crypto';
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

/** The annotation the broker's divert gives a copy: its id of the original on that node (its journal's sequence). */
const ORIGINAL_ID = 'x-opt-ORIG-MESSAGE-ID';

/**
 * What a redelivered copy shares with its first delivery, and no other copy has: the broker's id of the original on
 * the tap's node, with the copy's send and expiry times (a node whose journal was wiped starts its ids again; the
 * times keep such an id from matching an older copy's), hashed with the cluster and the logical node into a UUID (16
 * bytes in the index). Its first six bytes are the copy's expiry (else its send time) in milliseconds, so keys arrive
 * in about the order rows do and each partition's unique index grows at its right edge instead of at random pages
 * (measured: the insert of a batch took about two thirds as long as with random keys). Null when the broker gave no
 * id: nothing then tells a redelivery by.
 */
function captureKeyOf(tap: LiveTap, message: NativeMessage): string | null {
  const original = message.messageAnnotations[ORIGINAL_ID]?.value;
  if (typeof original !== 'number' && typeof original !== 'string') return null;
  const { creationTime, absoluteExpiryTime } = message.properties;
  return timeOrderedKey(absoluteExpiryTime ?? creationTime ?? 0, [
    tap.clusterId,
    tap.nodeId,
    String(original),
    String(creationTime),
    String(absoluteExpiryTime),
  ]);
}

/** A UUID whose first six bytes are `timeMs` and whose rest is a hash of `identity` (the bench makes keys so too). */
export function timeOrderedKey(timeMs: number, identity: readonly string[]): string {
  const hash = createHash('sha256').update(identity.join('\n')).digest('hex');
  const hex = Math.max(0, Math.trunc(timeMs)).toString(16).padStart(12, '0').slice(-12) + hash.slice(0, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function capturedMessageOf(tap: LiveTap, message: NativeMessage, capturedAt: Date): CapturedMessage {
  const properties = Object.fromEntries(
    Object.entries(message.applicationProperties).map(([key, value]) => [key, scalar(value)]),
  );
  return {
    // A message sent without an id of its own is known by the broker's id of it on its node: the id the live source
    // gives for it, and the one a message action takes.
    id: idText(message.properties.messageId) ?? idText(message.messageAnnotations[ORIGINAL_ID]) ?? '',
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
    captureKey: captureKeyOf(tap, message),
    subscriptionId: tap.subscriptionId,
    properties,
    body: bodyOf(message),
    contentType: message.properties.contentType,
    sentAt: isoOrNull(message.properties.creationTime),
    receivedAt: capturedAt.toISOString(),
  };
}
