// A message to send over the native channel, and its AMQP encoding. Text goes as an AMQP string value
// (what JMS consumers read as a TextMessage); JSON and bytes go as a data section with a content type, so
// the bytes arrive exactly as given.
import rhea, { type Message } from 'rhea';
import { toRheaTyped, type TypedValue } from './typed-value.ts';

type SendBody =
  | { readonly encoding: 'text'; readonly text: string }
  | { readonly encoding: 'json'; readonly json: unknown }
  | { readonly encoding: 'base64'; readonly base64: string; readonly contentType?: string };

export interface SendRequest {
  readonly address: string;
  /** Picks the routing type when the broker auto-creates the address; without it Artemis creates MULTICAST. */
  readonly routingType?: 'anycast' | 'multicast';
  readonly body: SendBody;
  readonly applicationProperties?: Readonly<Record<string, TypedValue>>;
  readonly messageAnnotations?: Readonly<Record<string, TypedValue>>;
  readonly messageId?: string;
  readonly correlationId?: string;
  readonly subject?: string;
  readonly replyTo?: string;
  readonly groupId?: string;
  readonly durable?: boolean;
  readonly priority?: number;
  /** Relative time to live in milliseconds, counted by the broker from receipt. */
  readonly ttlMs?: number;
  /** Absolute expiry as epoch milliseconds; wins over ttlMs on the broker. */
  readonly absoluteExpiryTime?: number;
}

// rhea types its section helpers as `any`; this is what they return.
const dataSection = (bytes: Buffer): unknown => rhea.message.data_section(bytes) as unknown;

function bodyFields(body: SendBody): { body: unknown; content_type?: string } {
  switch (body.encoding) {
    case 'text':
      return { body: body.text };
    case 'json':
      return {
        body: dataSection(Buffer.from(JSON.stringify(body.json), 'utf8')),
        content_type: 'application/json',
      };
    case 'base64':
      return {
        body: dataSection(Buffer.from(body.base64, 'base64')),
        content_type: body.contentType ?? 'application/octet-stream',
      };
  }
}

function typedMap(values: Readonly<Record<string, TypedValue>> | undefined) {
  if (!values) return undefined;
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, toRheaTyped(value)]));
}

export function targetCapabilities(routingType: SendRequest['routingType']): string[] | undefined {
  if (routingType === 'anycast') return ['queue'];
  if (routingType === 'multicast') return ['topic'];
  return undefined;
}

/** The rhea message for a request; undefined fields are left out so the broker applies its defaults. */
export function encodeSendRequest(request: SendRequest): Message {
  const fields: Record<string, unknown> = {
    ...bodyFields(request.body),
    application_properties: typedMap(request.applicationProperties),
    message_annotations: typedMap(request.messageAnnotations),
    message_id: request.messageId,
    correlation_id: request.correlationId,
    subject: request.subject,
    reply_to: request.replyTo,
    group_id: request.groupId,
    durable: request.durable,
    priority: request.priority,
    ttl: request.ttlMs,
    absolute_expiry_time: request.absoluteExpiryTime === undefined ? undefined : new Date(request.absoluteExpiryTime),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as unknown as Message;
}
