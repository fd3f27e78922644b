// The declared document as the editor holds it: JSON text. The form view reads and writes the same text through these
// helpers, so both views edit one document: a form change parses the text, changes one field and writes it back
// (two-space indentation, the order of the other keys kept).

export type JsonObject = Record<string, unknown>;

/** The '#' address setting's fields the form shows (the ones operators tune first). */
export const FORM_FIELDS = {
  text: ['deadLetterAddress', 'expiryAddress'],
  number: ['maxDeliveryAttempts', 'redeliveryDelay', 'redistributionDelay', 'maxSizeBytes'],
  policy: 'addressFullMessagePolicy',
  flags: ['autoCreateQueues', 'autoCreateAddresses'],
} as const;

export const FULL_POLICIES = ['DROP', 'PAGE', 'BLOCK', 'FAIL'] as const;
export const CATCH_ALL = '#';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const documentText = (document: unknown) => `${JSON.stringify(document ?? {}, null, 2)}\n`;

/** The text as a document object, or why it is not one. */
export function parseDocument(text: string): { document: JsonObject } | { error: string } {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? { document: parsed } : { error: 'The document must be a JSON object.' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const arrayOf = (document: JsonObject, section: string): JsonObject[] =>
  Array.isArray(document[section]) ? (document[section] as unknown[]).filter(isObject) : [];

/** The settings of the '#' address setting ({} when none is declared). */
export function catchAllSettings(document: JsonObject): JsonObject {
  const entry = arrayOf(document, 'addressSettings').find((item) => item.match === CATCH_ALL);
  return isObject(entry?.settings) ? entry.settings : {};
}

/** The document with one '#' setting set, or left out when `value` is undefined (the entry is added when missing). */
export function withCatchAllSetting(document: JsonObject, field: string, value: unknown): JsonObject {
  const settings = Array.isArray(document.addressSettings) ? [...(document.addressSettings as unknown[])] : [];
  let index = settings.findIndex((item) => isObject(item) && item.match === CATCH_ALL);
  if (index < 0) {
    if (value === undefined) return document;
    settings.push({ match: CATCH_ALL, settings: {} });
    index = settings.length - 1;
  }
  const entry = settings[index] as JsonObject;
  // A field already declared keeps its place; a new one goes last.
  const entries: Array<[string, unknown]> = Object.entries(isObject(entry.settings) ? entry.settings : {});
  const kept = entries.flatMap<[string, unknown]>(([key, old]) =>
    key !== field ? [[key, old]] : value === undefined ? [] : [[key, value]],
  );
  const added: Array<[string, unknown]> =
    value !== undefined && !entries.some(([key]) => key === field) ? [[field, value]] : [];
  const next: JsonObject = Object.fromEntries([...kept, ...added]);
  settings[index] = { ...entry, settings: next };
  return { ...document, addressSettings: settings };
}

export interface NewQueue {
  readonly name: string;
  readonly address: string;
  readonly routingType: 'ANYCAST' | 'MULTICAST';
  readonly durable: boolean;
}

/** The document with a queue declared; refused (a sentence) when its name is declared already. */
export function withQueue(document: JsonObject, queue: NewQueue): { document: JsonObject } | { error: string } {
  const queues = Array.isArray(document.queues) ? (document.queues as unknown[]) : [];
  if (queues.some((item) => isObject(item) && item.name === queue.name))
    return { error: `The queue "${queue.name}" is declared already.` };
  return { document: { ...document, queues: [...queues, { ...queue }] } };
}
