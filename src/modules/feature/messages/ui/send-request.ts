// The send form's state and the request it makes: the body as text, JSON or bytes (base64), typed application
// properties (a long kept as digits, int apart from long), durability, priority and time to live. Pure: what is
// wrong with the form is said here, and the request is built only when nothing is.
import type { RouterInputs } from '@/ui/data/trpc.ts';

export type SendInput = RouterInputs['messages']['send'];
export type RoutingType = 'ANYCAST' | 'MULTICAST';
type BodyType = 'text' | 'json' | 'bytes';
type PropertyValue = NonNullable<SendInput['properties']>[string];
export type PropertyType = PropertyValue['type'];

export const PROPERTY_TYPES: readonly PropertyType[] = [
  'string',
  'int',
  'long',
  'short',
  'byte',
  'double',
  'float',
  'boolean',
  'char',
  'timestamp',
  'uuid',
  'symbol',
];
const INTEGER_TYPES = new Set<PropertyType>(['int', 'short', 'byte', 'ubyte', 'ushort', 'uint']);
const NUMBER_TYPES = new Set<PropertyType>(['float', 'double']);

export interface PropertyRow {
  readonly id: number;
  readonly name: string;
  readonly type: PropertyType;
  readonly value: string;
}

export interface SendForm {
  readonly address: string;
  readonly routingType: RoutingType;
  readonly bodyType: BodyType;
  readonly bodyText: string;
  /** Of a bytes body only. */
  readonly contentType: string;
  readonly properties: readonly PropertyRow[];
  readonly durable: boolean;
  /** As the number inputs give them: a number, or '' when empty. */
  readonly priority: number | string;
  readonly ttl: number | string;
}

/** A fresh form for the queue's address and routing type. */
export const emptySendForm = (address: string, routingType: RoutingType): SendForm => ({
  address,
  routingType,
  bodyType: 'text',
  bodyText: '',
  contentType: '',
  properties: [],
  durable: true,
  priority: 4,
  ttl: '',
});

/** The typed value of a row, or why it does not fit its type. */
export function typedValue(row: PropertyRow): { value: PropertyValue } | { error: string } {
  const text = row.value.trim();
  if (row.type === 'boolean') {
    if (text !== 'true' && text !== 'false') return { error: 'true or false' };
    return { value: { type: 'boolean', value: text === 'true' } };
  }
  if (row.type === 'long' || row.type === 'ulong') {
    // Kept as digits: a long may not fit a JavaScript number.
    if (!/^-?\d+$/.test(text)) return { error: 'a whole number' };
    return { value: { type: row.type, value: text } };
  }
  if (INTEGER_TYPES.has(row.type)) {
    const number = Number(text);
    if (text === '' || !Number.isInteger(number)) return { error: 'a whole number' };
    return { value: { type: row.type, value: number } };
  }
  if (NUMBER_TYPES.has(row.type)) {
    const number = Number(text);
    if (text === '' || !Number.isFinite(number)) return { error: 'a number' };
    return { value: { type: row.type, value: number } };
  }
  if (row.type === 'timestamp') {
    const number = /^-?\d+$/.test(text) ? Number(text) : Date.parse(text);
    if (!Number.isFinite(number)) return { error: 'milliseconds since 1970 or a date, e.g. 2026-01-31T12:00:00Z' };
    return { value: { type: 'timestamp', value: number } };
  }
  if (row.type === 'char' && Array.from(row.value).length !== 1) return { error: 'one character' };
  return { value: { type: row.type, value: row.value } };
}

function bodyOf(type: BodyType, text: string, contentType: string): { body: SendInput['body'] } | { error: string } {
  if (type === 'text') return { body: { type: 'text', text } };
  if (type === 'json') {
    try {
      return { body: { type: 'json', json: JSON.parse(text) as unknown } };
    } catch (error) {
      return { error: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const base64 = text.replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) return { error: 'Not base64' };
  return { body: { type: 'bytes', base64, ...(contentType.trim() ? { contentType: contentType.trim() } : {}) } };
}

/**
 * The dry run the form asks for, or the first thing wrong with it: the body, a property named twice or not fitting
 * its type, a missing address. `bodyError` is the body's own problem, shown under the body field.
 */
export function sendRequest(
  clusterId: string,
  form: SendForm,
): { input: SendInput | undefined; problem: string | undefined; bodyError: string | undefined } {
  const body = bodyOf(form.bodyType, form.bodyText, form.contentType);
  const typed = form.properties.filter((row) => row.name.trim() !== '').map((row) => ({ row, typed: typedValue(row) }));
  const names = typed.map(({ row }) => row.name.trim());
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  const badProperty = typed.find(({ typed: value }) => 'error' in value);
  const problem =
    'error' in body
      ? body.error
      : duplicate
        ? `The property ${duplicate} is there twice`
        : badProperty
          ? `The property ${badProperty.row.name} must be ${'error' in badProperty.typed ? badProperty.typed.error : ''}`
          : form.address.trim() === ''
            ? 'Give an address'
            : undefined;
  const bodyError = 'error' in body ? body.error : undefined;
  if (problem || 'error' in body) return { input: undefined, problem, bodyError };
  const { durable, priority, ttl } = form;
  const input: SendInput = {
    clusterId,
    address: form.address.trim(),
    routingType: form.routingType,
    body: body.body,
    ...(typed.length > 0
      ? {
          properties: Object.fromEntries(
            typed.map(({ row, typed: value }) => [row.name.trim(), 'value' in value ? value.value : null]),
          ) as SendInput['properties'],
        }
      : {}),
    headers: {
      durable,
      ...(typeof priority === 'number' ? { priority } : {}),
      ...(typeof ttl === 'number' && ttl > 0 ? { ttlMs: ttl } : {}),
    },
    dryRun: true,
    clear: false,
  };
  return { input, problem, bodyError };
}
