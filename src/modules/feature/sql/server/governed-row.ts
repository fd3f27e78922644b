// A message's governed content (headers, properties, body after the content policy) as the row every source answers.
import type { GovernedMessage } from '@/modules/platform/governance/index.ts';
import type { MessageRow, PropertyValue } from './message-row.ts';

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : JSON.stringify(value);
}

function instant(value: unknown): string | null {
  const millis =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (value instanceof Date) return value.toISOString();
  return Number.isFinite(millis) && millis > 0 ? new Date(millis).toISOString() : null;
}

function first(record: Readonly<Record<string, unknown>>, names: readonly string[]): unknown {
  for (const name of names) if (record[name] !== undefined && record[name] !== null) return record[name];
  return undefined;
}

function propertyValue(value: unknown): PropertyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return JSON.stringify(value);
}

export interface RowPlace {
  readonly id: string;
  readonly address: string;
  readonly queue: string | null;
  readonly node: string;
  /** When the message carries no timestamp (captured at). */
  readonly fallbackTime: string;
}

/** Correlation and reply-to under each protocol's name: AMQP's properties section, JMS/core property names. */
const CORRELATION = ['correlation_id', 'correlationId', 'correlation-id', 'JMSCorrelationID', '_AMQ_CORRELATION_ID'];
const REPLY_TO = ['reply_to', 'replyTo', 'reply-to', 'JMSReplyTo', '_AMQ_REPLY_TO'];

export function rowOfGoverned(place: RowPlace, governed: GovernedMessage): MessageRow {
  const { headers, properties, body } = governed;
  const durable = headers.durable;
  return {
    id: place.id,
    address: place.address,
    queue: place.queue,
    node: place.node,
    time: instant(first(headers, ['timestamp', 'creationTime', 'creation_time'])) ?? place.fallbackTime,
    priority: typeof headers.priority === 'number' ? headers.priority : null,
    durable: typeof durable === 'boolean' ? durable : null,
    expiration: instant(first(headers, ['expiration', 'absoluteExpiryTime'])),
    correlation_id: text(first(headers, CORRELATION) ?? first(properties, CORRELATION)),
    reply_to: text(first(headers, REPLY_TO) ?? first(properties, REPLY_TO)),
    properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, propertyValue(value)])),
    body: body.kind === 'json' || body.kind === 'text' || body.kind === 'xml' ? body.value : null,
  };
}
