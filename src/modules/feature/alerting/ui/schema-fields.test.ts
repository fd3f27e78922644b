// The rule editor's and channel form's reading of JSON Schema, on schemas made the way the API makes them
// (zod's toJSONSchema of the input side): fields without the constant `kind`, labels, defaults, what is missing.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultsOf, fieldsOf, labelOf, missingOf, typeOf, type JsonSchema } from './schema-fields.ts';

const asApi = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;

const threshold = asApi(
  z.object({
    metric: z.enum(['depth', 'consumers']),
    op: z.enum(['>', '<']).default('>'),
    threshold: z.number(),
    windowSeconds: z.number().int().min(60).default(300),
  }),
);
const webhook = asApi(z.object({ kind: z.literal('webhook'), url: z.url(), secret: z.string().min(16).optional() }));

describe('schema fields', () => {
  it('lists the fields a person fills in, leaving out a constant', () => {
    expect(fieldsOf(webhook).map(([name]) => name)).toEqual(['url', 'secret']);
    expect(fieldsOf(undefined)).toEqual([]);
  });

  it('labels fields in words', () => {
    expect(['windowSeconds', 'url', 'metric'].map(labelOf)).toEqual(['Window seconds', 'URL', 'Metric']);
  });

  it('starts from the defaults and names the required fields still empty', () => {
    const values = defaultsOf(threshold);
    expect(values).toEqual({ op: '>', windowSeconds: 300 });
    expect(missingOf(threshold, values)).toEqual(['Metric', 'Threshold']);
    expect(missingOf(threshold, { ...values, metric: 'depth', threshold: 0 })).toEqual([]);
    expect(missingOf(webhook, { url: '' })).toEqual(['URL']);
  });

  it('reads the type, the first of a list', () => {
    expect(typeOf({ type: ['integer', 'null'] })).toBe('integer');
    expect(typeOf(threshold.properties?.windowSeconds ?? {})).toBe('integer');
  });
});
