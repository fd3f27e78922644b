// Every string input of every operation in the OpenAPI document, sent with a NUL, a lone surrogate or a
// right-to-left override, is refused with 400 `invalid-characters` before any procedure runs: no 500, nothing
// audited, nothing changed. The anonymous sign-in is among them. Table-driven from the document itself, so a new
// operation is covered the day it is added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
}
interface Operation {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
}
interface Input {
  readonly method: string;
  readonly path: string;
  readonly where: 'path' | 'query' | 'body';
  readonly field: string;
}

let secured: SecuredRuntime;
let admin: AuthHeaders;
const inputs: Input[] = [];

const BAD = { NUL: 'a\u0000b', 'a lone surrogate': 'a\ud800b', 'a right-to-left override': 'x\u202Ey' };

function stringFields(schema: Schema | undefined, prefix = ''): string[] {
  return Object.entries(schema?.properties ?? {}).flatMap(([name, property]) => {
    if (property.type === 'string') return [`${prefix}${name}`];
    if (property.type === 'object') return stringFields(property, `${prefix}${name}.`);
    return [];
  });
}

function setField(target: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
  const [head = '', ...rest] = field.split('.');
  if (rest.length === 0) return { ...target, [head]: value };
  return { ...target, [head]: setField({}, rest.join('.'), value) };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  const document = (await (await secured.rest(new Request('http://127.0.0.1/api/v1/openapi.json'))).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.type !== 'string') continue;
        inputs.push({ method, path, where: parameter.in === 'path' ? 'path' : 'query', field: parameter.name });
      }
      for (const field of stringFields(operation.requestBody?.content?.['application/json']?.schema)) {
        inputs.push({ method, path, where: 'body', field });
      }
    }
  }
});

afterAll(async () => {
  await secured.close();
});

function requestFor(input: Input, value: string, headers: Record<string, string>): Request {
  const url = new URL(
    `http://127.0.0.1/api/v1${input.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
      name === input.field && input.where === 'path'
        ? encodeURIComponent(value)
        : '00000000-0000-4000-8000-000000000000',
    )}`,
  );
  if (input.where === 'query') url.searchParams.set(input.field, value);
  const body = input.where === 'body' ? JSON.stringify(setField({}, input.field, value)) : undefined;
  const hasBody = !['get', 'delete'].includes(input.method) || body !== undefined;
  return new Request(url, {
    method: input.method.toUpperCase(),
    headers: { ...headers, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? (body ?? '{}') : undefined,
  });
}

describe('string inputs', () => {
  it('cover every operation of the document that takes one', () => {
    expect(inputs.length).toBeGreaterThan(60);
    expect(inputs).toContainEqual({ method: 'post', path: '/auth/login', where: 'body', field: 'username' });
    expect(inputs).toContainEqual({ method: 'get', path: '/audit', where: 'query', field: 'actor' });
  });

  it.each(Object.entries(BAD))(
    'refuse %s everywhere with 400 invalid-characters, changing and auditing nothing',
    async (_what, value) => {
      const auditBefore = await secured.runtime.prisma.auditEvent.count();
      const failures: string[] = [];
      // A URL cannot carry a lone surrogate at all (its percent-encoding is invalid UTF-8 and decodes to U+FFFD), so
      // that case is a body's alone.
      const applicable = value === BAD['a lone surrogate'] ? inputs.filter((input) => input.where === 'body') : inputs;
      for (const input of applicable) {
        for (const headers of input.path === '/auth/login' ? [{}, admin] : [admin]) {
          const response = await secured.rest(requestFor(input, value, headers));
          const body = (await response.json()) as { type?: string };
          if (response.status !== 400 || body.type !== 'invalid-characters') {
            failures.push(
              `${input.method} ${input.path} ${input.where}:${input.field} → ${response.status} ${body.type ?? ''}`,
            );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await secured.runtime.prisma.auditEvent.count()).toBe(auditBefore);
    },
  );
});

describe('bodies', () => {
  it('refuse a 10,000-level document (even on a dry run) with 400, not a stack overflow', async () => {
    const deep = `{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const response = await secured.rest(
      new Request('http://127.0.0.1/api/v1/settings/audit.retention?dryRun=true', {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: deep,
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'too-deeply-nested' });
  });

  it('refuse an anonymous 50 MB body by its length, and a signed-in one past http.max-body-bytes, with 413', async () => {
    let pulled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(64 * 1024));
        },
      });
    const anonymous = await secured.rest(
      new Request('http://127.0.0.1/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) },
        body: endless(),
        duplex: 'half',
      } as RequestInit),
    );
    expect(anonymous.status).toBe(413);
    expect(await anonymous.json()).toMatchObject({ type: 'payload-too-large', limit: 65_536 });
    expect(pulled).toBeLessThanOrEqual(1);

    // No length given: counted, and given up at the limit (1 MiB by default for a signed-in caller).
    pulled = 0;
    const counted = await secured.rest(
      new Request('http://127.0.0.1/api/v1/settings/audit.retention', {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: endless(),
        duplex: 'half',
      } as RequestInit),
    );
    expect(counted.status).toBe(413);
    expect(pulled).toBeLessThan(20);
  });
});
