// What browse and the client-acknowledge consumer return for one message: the real body bytes and every
// property with its AMQP type, read from the message's encoded sections (see raw-message.ts for why).
import rhea, { type Message, type Typed } from 'rhea';
import { rawBytesOf } from './raw-message.ts';
import { fromRheaTyped, type TypedValue } from './typed-value.ts';

/** How to read `base64`: text and json are UTF-8. */
type BodyEncoding = 'text' | 'json' | 'binary' | 'empty';

interface NativeBody {
  readonly base64: string;
  readonly encoding: BodyEncoding;
  /** The AMQP body section it came from: `data` (bytes), `amqp-value`, `amqp-sequence`, or `none`. */
  readonly section: 'data' | 'amqp-value' | 'amqp-sequence' | 'none';
  readonly sizeBytes: number;
  /** For an amqp-value or amqp-sequence that is not a string or bytes: the value with its types. */
  readonly value?: TypedValue;
}

export interface NativeMessage {
  readonly channel: 'native';
  readonly header: {
    readonly durable: boolean;
    readonly priority: number;
    readonly ttl?: number;
    readonly firstAcquirer: boolean;
    readonly deliveryCount: number;
  };
  /** The AMQP properties section; ids keep their type (string, ulong, uuid, binary). */
  readonly properties: {
    readonly messageId?: TypedValue;
    readonly userId?: string;
    readonly to?: string;
    readonly subject?: string;
    readonly replyTo?: string;
    readonly correlationId?: TypedValue;
    readonly contentType?: string;
    readonly contentEncoding?: string;
    readonly absoluteExpiryTime?: number;
    readonly creationTime?: number;
    readonly groupId?: string;
    readonly groupSequence?: number;
    readonly replyToGroupId?: string;
  };
  readonly applicationProperties: Readonly<Record<string, TypedValue>>;
  /** Includes the broker's x-opt-* annotations and any _AMQ_* ones it added. */
  readonly messageAnnotations: Readonly<Record<string, TypedValue>>;
  readonly deliveryAnnotations: Readonly<Record<string, TypedValue>>;
  readonly footer: Readonly<Record<string, TypedValue>>;
  readonly body: NativeBody;
}

const SECTION = {
  header: 0x70,
  deliveryAnnotations: 0x71,
  messageAnnotations: 0x72,
  properties: 0x73,
  applicationProperties: 0x74,
  data: 0x75,
  sequence: 0x76,
  value: 0x77,
  footer: 0x78,
} as const;

const PROPERTY_FIELDS = [
  'messageId',
  'userId',
  'to',
  'subject',
  'replyTo',
  'correlationId',
  'contentType',
  'contentEncoding',
  'absoluteExpiryTime',
  'creationTime',
  'groupId',
  'groupSequence',
  'replyToGroupId',
] as const;

interface SectionReader {
  buffer: Buffer;
  position: number;
  remaining(): number;
  read(): Typed;
  read_fixed_width(type: { name: string }): unknown;
}

const RheaReader = (rhea.types as unknown as { Reader: new (buffer: Buffer) => SectionReader }).Reader;

/** rhea rounds 64-bit integers between 2^53 and 2^53 + 2^32; this reader hands them over as raw bytes. */
class PreciseReader extends RheaReader {
  override read_fixed_width(type: { name: string }): unknown {
    if (type.name !== 'Long' && type.name !== 'Ulong') return super.read_fixed_width(type);
    const start = this.position;
    this.position += 8;
    return this.buffer.subarray(start, start + 8);
  }
}

function sectionsOf(raw: Buffer): Map<number, Typed[]> {
  const reader = new PreciseReader(raw);
  const sections = new Map<number, Typed[]>();
  while (reader.remaining() > 0) {
    const section = reader.read();
    const descriptor = Number((section.descriptor as { value: unknown } | undefined)?.value);
    sections.set(descriptor, [...(sections.get(descriptor) ?? []), section]);
  }
  return sections;
}

function mapSection(section: Typed | undefined): Record<string, TypedValue> {
  if (!section || section.type.name === 'Null') return {};
  const typed = fromRheaTyped(section);
  return typed.type === 'map' ? { ...typed.value } : {};
}

function plainOf(value: TypedValue | undefined): unknown {
  if (!value) return undefined;
  if (value.type === 'list' || value.type === 'array') return value.value.map(plainOf);
  if (value.type === 'map') return Object.fromEntries(Object.entries(value.value).map(([k, v]) => [k, plainOf(v)]));
  return value.value;
}

function propertiesOf(section: Typed | undefined): NativeMessage['properties'] {
  const fields = (section?.value ?? []) as Typed[];
  const result: Record<string, unknown> = {};
  PROPERTY_FIELDS.forEach((name, index) => {
    const field = fields[index];
    if (!field || field.type.name === 'Null') return;
    const typed = fromRheaTyped(field);
    result[name] = name === 'messageId' || name === 'correlationId' ? typed : plainOf(typed);
  });
  return result;
}

function headerOf(section: Typed | undefined): NativeMessage['header'] {
  const fields = ((section?.value ?? []) as Typed[]).map((field) =>
    field.type.name === 'Null' ? undefined : plainOf(fromRheaTyped(field)),
  );
  const [durable, priority, ttl, firstAcquirer, deliveryCount] = fields;
  return {
    durable: durable === true,
    priority: typeof priority === 'number' ? priority : 4,
    ...(typeof ttl === 'number' ? { ttl } : {}),
    firstAcquirer: firstAcquirer === true,
    deliveryCount: typeof deliveryCount === 'number' ? deliveryCount : 0,
  };
}

function encodingForContentType(contentType: string | undefined): BodyEncoding {
  if (!contentType) return 'binary';
  if (/json/i.test(contentType)) return 'json';
  if (/^text\//i.test(contentType) || /charset=/i.test(contentType)) return 'text';
  return 'binary';
}

function bodyOf(sections: Map<number, Typed[]>, contentType: string | undefined): NativeBody {
  const data = sections.get(SECTION.data);
  if (data) {
    const bytes = Buffer.concat(data.map((section) => Buffer.from(section.value as Buffer)));
    const encoding = bytes.length === 0 ? 'empty' : encodingForContentType(contentType);
    return { base64: bytes.toString('base64'), encoding, section: 'data', sizeBytes: bytes.length };
  }
  const value = sections.get(SECTION.value)?.[0];
  if (value) {
    const typed = fromRheaTyped(value);
    if (typed.type === 'string' || typed.type === 'symbol') {
      const bytes = Buffer.from(typed.value, 'utf8');
      return { base64: bytes.toString('base64'), encoding: 'text', section: 'amqp-value', sizeBytes: bytes.length };
    }
    if (typed.type === 'binary') {
      const bytes = Buffer.from(typed.value, 'base64');
      return { base64: typed.value, encoding: 'binary', section: 'amqp-value', sizeBytes: bytes.length };
    }
    if (typed.type === 'null') return { base64: '', encoding: 'empty', section: 'amqp-value', sizeBytes: 0 };
    return jsonBody(typed, 'amqp-value');
  }
  const sequence = sections.get(SECTION.sequence);
  if (sequence) {
    const lists: TypedValue = { type: 'list', value: sequence.map(fromRheaTyped) };
    return jsonBody(lists, 'amqp-sequence');
  }
  return { base64: '', encoding: 'empty', section: 'none', sizeBytes: 0 };
}

function jsonBody(value: TypedValue, section: 'amqp-value' | 'amqp-sequence'): NativeBody {
  const bytes = Buffer.from(JSON.stringify(plainOf(value)), 'utf8');
  return { base64: bytes.toString('base64'), encoding: 'json', section, sizeBytes: bytes.length, value };
}

/** Reads a message from its encoded bytes. */
export function nativeMessageFromBytes(raw: Buffer): NativeMessage {
  const sections = sectionsOf(raw);
  const first = (code: number) => sections.get(code)?.[0];
  const properties = propertiesOf(first(SECTION.properties));
  return {
    channel: 'native',
    header: headerOf(first(SECTION.header)),
    properties,
    applicationProperties: mapSection(first(SECTION.applicationProperties)),
    messageAnnotations: mapSection(first(SECTION.messageAnnotations)),
    deliveryAnnotations: mapSection(first(SECTION.deliveryAnnotations)),
    footer: mapSection(first(SECTION.footer)),
    body: bodyOf(sections, properties.contentType),
  };
}

/** Reads a message rhea delivered; falls back to re-encoding when the raw bytes were not kept. */
export function nativeMessageOf(message: Message): NativeMessage {
  return nativeMessageFromBytes(rawBytesOf(message) ?? rhea.message.encode(message));
}
