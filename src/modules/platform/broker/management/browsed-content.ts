// A message as QueueControl.browse renders it (typed property maps, a text body or a byte preview) turned into
// headers, application properties and a body, the one reading every management-browsing module shares.
const AMQP_HEADER_SECTIONS = new Set(['messageAnnotations', 'deliveryAnnotations', 'extraProperties', 'properties']);

const HEADER_FIELDS = ['address', 'durable', 'priority', 'timestamp', 'expiration', 'userID', 'type', 'redelivered'];

type BrowsedBody =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly size: number }
  | { readonly kind: 'empty' };

export interface BrowsedContent {
  readonly headers: Record<string, unknown>;
  readonly properties: Record<string, unknown>;
  /** Each property's type as the broker names its map (`string`, `int`, `long`, `bytes`, …). */
  readonly propertyTypes: Record<string, string>;
  readonly body: BrowsedBody;
  /** The body as received: the text's bytes, or the broker's preview of a binary body. */
  readonly bodyBytes: Buffer;
}

export function contentOfBrowsed(raw: Readonly<Record<string, unknown>>): BrowsedContent {
  const headers: Record<string, unknown> = {};
  for (const field of HEADER_FIELDS) if (raw[field] !== undefined) headers[field] = raw[field];
  const properties: Record<string, unknown> = {};
  const propertyTypes: Record<string, string> = {};
  for (const [field, value] of Object.entries(raw)) {
    if (!field.endsWith('Properties') || !value || typeof value !== 'object') continue;
    const type = field.replace(/Properties$/, '').toLowerCase();
    for (const [key, given] of Object.entries(value as Record<string, unknown>)) {
      // An AMQP message's sections come prefixed: its application properties are the message's properties, the
      // rest (annotations, the properties section, the broker's extras) are headers.
      const [section, ...rest] = key.split('.');
      const name = rest.join('.');
      // A byte array comes as Java's signed bytes: as bytes, the policy reads the text they hold.
      const inner =
        type === 'bytes' && Array.isArray(given) ? Buffer.from((given as number[]).map((byte) => byte & 0xff)) : given;
      if (section === 'applicationProperties' && name) {
        properties[name] = inner;
        propertyTypes[name] = type;
      } else if (name && AMQP_HEADER_SECTIONS.has(section ?? '')) headers[name] = inner;
      else {
        properties[key] = inner;
        propertyTypes[key] = type;
      }
    }
  }
  const text = typeof raw.text === 'string' ? raw.text : undefined;
  const preview = Array.isArray(raw.BodyPreview) ? Buffer.from(raw.BodyPreview as number[]) : undefined;
  const body: BrowsedBody =
    text !== undefined
      ? { kind: 'text', text }
      : preview && preview.length > 0
        ? { kind: 'bytes', size: preview.length }
        : { kind: 'empty' };
  const bodyBytes = text !== undefined ? Buffer.from(text, 'utf8') : (preview ?? Buffer.alloc(0));
  return { headers, properties, propertyTypes, body, bodyBytes };
}
