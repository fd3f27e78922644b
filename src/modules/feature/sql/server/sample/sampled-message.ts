// A message a sampler browsed over the management channel, as the index writer takes it: in clear (the writer
// governs and seals it), with the queue it was browsed from.
import { contentOfBrowsed } from '@/modules/platform/broker/index.ts';
import type { CapturedMessage } from '../index/stored-message.ts';
import type { PropertyValue } from '../message-row.ts';

export interface SamplePlace {
  readonly clusterId: string;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly address: string;
  readonly queue: string;
  readonly subscriptionId: string;
}

const CORRELATION = ['correlationId', 'correlation-id', 'JMSCorrelationID', '_AMQ_CORRELATION_ID'];
const REPLY_TO = ['replyTo', 'reply-to', 'JMSReplyTo', '_AMQ_REPLY_TO'];

function scalar(value: unknown): PropertyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return JSON.stringify(value);
}

function firstText(records: ReadonlyArray<Readonly<Record<string, unknown>>>, names: readonly string[]) {
  for (const record of records)
    for (const name of names) {
      const value = record[name];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
    }
  return null;
}

const instant = (millis: unknown) => (typeof millis === 'number' && millis > 0 ? new Date(millis).toISOString() : null);

function bodyOf(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function sampledMessageOf(
  place: SamplePlace,
  messageId: string,
  raw: Record<string, unknown>,
  seenAt: Date,
): CapturedMessage {
  const content = contentOfBrowsed(raw);
  return {
    id: messageId,
    address: place.address,
    queue: place.queue,
    node: place.nodeName,
    time: instant(raw.timestamp) ?? seenAt.toISOString(),
    priority: typeof raw.priority === 'number' ? raw.priority : null,
    durable: typeof raw.durable === 'boolean' ? raw.durable : null,
    expiration: instant(raw.expiration),
    correlation_id: firstText([content.headers, content.properties], CORRELATION),
    reply_to: firstText([content.headers, content.properties], REPLY_TO),
    clusterId: place.clusterId,
    nodeId: place.nodeId,
    origin: 'sample',
    subscriptionId: place.subscriptionId,
    properties: Object.fromEntries(Object.entries(content.properties).map(([key, value]) => [key, scalar(value)])),
    body:
      content.body.kind === 'text'
        ? bodyOf(content.body.text)
        : content.body.kind === 'bytes'
          ? content.bodyBytes
          : null,
  };
}
