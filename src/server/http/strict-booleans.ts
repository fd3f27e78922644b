// Every boolean of every procedure's input is strictly a boolean. trpc-to-openapi coerces the booleans of an input
// in place (`def.coerce = true`, so `Boolean("false")`, `Boolean([])` and `Boolean({})` are all true), on the schema
// objects tRPC shares: after one REST call `override: "false"` counted as true on both edges. Here each boolean
// schema reachable from a procedure's input parses strictly whatever its `coerce` says; the REST edge turns a query
// string's exact `true` and `false` into booleans itself (query-input.ts).
import type { AnyRouter } from '@trpc/server';

interface ZodNode {
  _zod: {
    def: Record<string, unknown> & { type: string };
    parse: (payload: ParsePayload, context: unknown) => ParsePayload;
    run: (payload: ParsePayload, context: unknown) => ParsePayload;
  };
}
interface ParsePayload {
  value: unknown;
  issues: unknown[];
}

const hardened = new WeakSet<object>();

function isZodNode(value: unknown): value is ZodNode {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The schemas a node's definition holds: object shapes, wrapped types, pipes, unions, records, tuples, lazies. */
function children(def: ZodNode['_zod']['def']): unknown[] {
  const found: unknown[] = [];
  for (const key of ['innerType', 'element', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'rest']) {
    found.push(def[key]);
  }
  for (const key of ['options', 'items']) if (Array.isArray(def[key])) found.push(...(def[key] as unknown[]));
  if (def.type === 'object') found.push(...Object.values(def.shape as Record<string, unknown>));
  if (def.type === 'lazy') found.push((def.getter as () => unknown)());
  return found;
}

function makeStrict(node: ZodNode): void {
  const zod = node._zod;
  const strict = (payload: ParsePayload): ParsePayload => {
    if (typeof payload.value !== 'boolean')
      payload.issues.push({ expected: 'boolean', code: 'invalid_type', input: payload.value, inst: node });
    return payload;
  };
  // A schema without checks runs its parse directly (zod copies it to `run` when it is built).
  if (zod.run === zod.parse) zod.run = strict;
  zod.parse = strict;
}

function harden(schema: unknown): void {
  if (!isZodNode(schema) || hardened.has(schema)) return;
  hardened.add(schema);
  const def = schema._zod.def;
  if (def.type === 'boolean') makeStrict(schema);
  for (const child of children(def)) harden(child);
}

/** Makes every boolean of every procedure input of the router strict; idempotent. */
export function strictBooleanInputs(router: AnyRouter): void {
  for (const procedure of Object.values(router._def.procedures as Record<string, { _def: { inputs: unknown[] } }>)) {
    for (const input of procedure._def.inputs) harden(input);
  }
}
