// One message as the API shows it, from either channel, after the content policy: headers, properties with their
// wire types, the body as base64 with what it is (text, JSON, XML, binary, withheld with the reason), the redactions
// with their classes, and whether the broker cut anything (management channel only). A body the policy left alone
// is passed on as the bytes received, so a native browse is byte-identical to what was sent. Ids, header and property
// names and binary values go through the policy too: a native message's id is its governed `messageId` header,
// binary values reach it as bytes (shown as base64 of what may be shown), and property types follow shown names.
import {
  contentOfBrowsed,
  type ManagementBrowseResult,
  type NativeMessage,
  type TypedValue,
} from '@/modules/platform/broker/index.ts';
import {
  governMessages,
  type Governed,
  type GovernedMessage,
  type MessageContent,
} from '@/modules/platform/governance/index.ts';

export interface MessageView {
  readonly messageId: string;
  readonly position: number | null;
  readonly headers: Record<string, unknown>;
  readonly properties: Record<string, unknown>;
  /** The AMQP type of each property (native channel), e.g. `int` apart from `long`. */
  readonly propertyTypes: Record<string, string>;
  readonly body: {
    readonly kind: 'empty' | 'text' | 'json' | 'xml' | 'binary' | 'withheld';
    readonly encoding: 'base64';
    readonly base64: string | null;
    readonly sizeBytes: number;
    readonly contentType: string | null;
    readonly withheldReason: string | null;
  };
  readonly bodyTruncated: boolean;
  readonly truncatedFields: string[];
  readonly redactions: Array<{ location: string; dataClass: string; action: string; by: string }>;
}

export interface Source {
  /** The id as the broker's management gives it (its own number), or '' when it is the messageId header (native). */
  readonly messageId: string;
  readonly position: number | null;
  readonly content: MessageContent;
  readonly propertyTypes: Record<string, string>;
  /** The bytes received, when the body was read whole (native). */
  readonly bodyBytes: Buffer | null;
  readonly sizeBytes: number;
  readonly contentType: string | null;
  readonly bodyTruncated: boolean;
  readonly truncatedFields: string[];
}

/** A typed value as plain JSON for the policy and the screen (its type travels in propertyTypes); binary as bytes. */
function plain(value: TypedValue): unknown {
  if (value.type === 'binary') return Buffer.from(value.value, 'base64');
  if (value.type === 'map')
    return Object.fromEntries(Object.entries(value.value).map(([key, inner]) => [key, plain(inner)]));
  if (value.type === 'list' || value.type === 'array') return value.value.map(plain);
  return value.value;
}

const plainRecord = (record: Readonly<Record<string, TypedValue>>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, plain(value)]));

function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

export function fromNative(message: NativeMessage & { position?: number }, address: string): Source {
  const bytes = Buffer.from(message.body.base64, 'base64');
  const contentType = message.properties.contentType ?? null;
  const headers = defined({
    ...message.header,
    ...Object.fromEntries(
      Object.entries(message.properties).map(([key, value]) => [
        key,
        value && typeof value === 'object' && 'type' in value ? plain(value) : value,
      ]),
    ),
    ...plainRecord(message.messageAnnotations),
  });
  const textual = message.body.encoding === 'text' || message.body.encoding === 'json';
  const valueText =
    message.body.value !== undefined && !textual ? JSON.stringify(plain(message.body.value)) : undefined;
  const body: MessageContent['body'] =
    message.body.encoding === 'empty'
      ? { kind: 'empty' }
      : textual
        ? { kind: 'text', text: bytes.toString('utf8'), contentType: contentType ?? undefined }
        : valueText !== undefined
          ? { kind: 'text', text: valueText, contentType: 'application/json' }
          : { kind: 'bytes', size: bytes.length, contentType: contentType ?? undefined };
  return {
    // Taken from the governed messageId header when the view is made (it is content: senders put order numbers in it).
    messageId: '',
    position: message.position ?? null,
    content: { address, headers, properties: plainRecord(message.applicationProperties), body },
    propertyTypes: Object.fromEntries(
      Object.entries(message.applicationProperties).map(([key, value]) => [key, value.type]),
    ),
    bodyBytes: valueText === undefined ? bytes : Buffer.from(valueText, 'utf8'),
    sizeBytes: message.body.sizeBytes,
    contentType,
    bodyTruncated: false,
    truncatedFields: [],
  };
}

/** A message as QueueControl.browse renders it: typed property maps, a text body or a byte preview. */
export function fromManagement(message: ManagementBrowseResult['messages'][number], address: string): Source {
  const { headers, properties, propertyTypes, body, bodyBytes: bytes } = contentOfBrowsed(message.raw);
  const raw = message.raw;
  return {
    messageId: message.messageId,
    position: null,
    content: { address, headers, properties, body },
    propertyTypes,
    bodyBytes: bytes,
    sizeBytes: typeof raw.persistentSize === 'number' ? raw.persistentSize : bytes.length,
    contentType: null,
    bodyTruncated: message.bodyTruncated,
    truncatedFields: [...message.truncatedFields],
  };
}

function bodyView(source: Source, governed: Governed<GovernedMessage>): MessageView['body'] {
  const body = governed.value.body;
  const touched = governed.redactions.some((redaction) => redaction.location.startsWith('body'));
  const base = { encoding: 'base64' as const, sizeBytes: source.sizeBytes, contentType: source.contentType };
  switch (body.kind) {
    case 'empty':
      return { ...base, kind: 'empty', base64: '', withheldReason: null };
    case 'withheld':
      return {
        ...base,
        kind: source.content.body?.kind === 'bytes' ? 'binary' : 'withheld',
        base64: null,
        withheldReason: body.reason,
      };
    default: {
      const text = body.kind === 'json' ? JSON.stringify(body.value) : body.value;
      const bytes = !touched && source.bodyBytes ? source.bodyBytes : Buffer.from(text, 'utf8');
      return { ...base, kind: body.kind, base64: bytes.toString('base64'), withheldReason: null };
    }
  }
}

/** Property types keyed by the names shown (a name the policy masked carries its type under the masked name). */
function shownTypes(types: Readonly<Record<string, string>>, governed: Governed<GovernedMessage>) {
  const shown: Record<string, string> = {};
  for (const [name, type] of Object.entries(types)) {
    const as = governed.renamed[`property:${name}`] ?? name;
    if (as in governed.value.properties) shown[as] = type;
  }
  return shown;
}

/** A cut field's name (`StringProperties.<name>`) with a masked property name masked in it too. */
function shownField(field: string, renamed: Readonly<Record<string, string>>): string {
  let shown = field;
  for (const [from, to] of Object.entries(renamed)) shown = shown.replaceAll(from.replace(/^\w+:/, ''), to);
  return shown;
}

const GIVEN_ID = 'messageID';

/** Every message of a page through the policy at once. */
export async function viewMessages(
  runtime: Parameters<typeof governMessages>[0],
  sources: readonly Source[],
  clear: boolean,
): Promise<{ views: MessageView[]; governed: Array<Governed<GovernedMessage>> }> {
  // Every id passes the policy as a header: a native message's is its messageId; a management id (the broker's own
  // number, the field the broker names messageID) or a send echo's (the sender's, maybe an order number) is added.
  const governed = await governMessages(
    runtime,
    sources.map((source) =>
      source.messageId === ''
        ? source.content
        : { ...source.content, headers: { ...source.content.headers, [GIVEN_ID]: source.messageId } },
    ),
    { clear },
  );
  const views = sources.map((source, index): MessageView => {
    const one = governed[index] as Governed<GovernedMessage>;
    const id = one.value.headers[source.messageId === '' ? 'messageId' : GIVEN_ID];
    return {
      messageId: typeof id === 'string' || typeof id === 'number' ? String(id) : '',
      position: source.position,
      headers: one.value.headers,
      properties: one.value.properties,
      propertyTypes: shownTypes(source.propertyTypes, one),
      body: bodyView(source, one),
      bodyTruncated: source.bodyTruncated,
      truncatedFields: source.truncatedFields.map((field) => shownField(field, one.renamed)),
      redactions: one.redactions.map((redaction) => ({ ...redaction })),
    };
  });
  return { views, governed };
}
