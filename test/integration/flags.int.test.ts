// The mutation flags `dryRun` and `override` of every operation that takes one, generated from the OpenAPI
// document: anything but a boolean (or, in the query, exactly `true`/`false`) is a 400 naming the flag on REST and
// on tRPC alike, and changes nothing; a flag repeated in the query is refused, as is any declared query parameter of
// a GET or DELETE given twice; and a dry run asked in the query or in
// the body makes the call a dry run whatever the other place says. Validation comes before any broker call, so the
// operations that need one answer their 400s without one.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/installation/app-router.ts';
import { createTrpcHandler } from '@/server/http/trpc-route.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { callRest } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

type Flag = 'dryRun' | 'override';
interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: { 'application/json'?: { schema?: { properties?: Record<string, unknown> } } } };
}
interface Flagged {
  readonly method: string;
  readonly path: string;
  readonly flags: readonly Flag[];
  /** The tRPC procedure serving it (its path parameters are input fields there). */
  readonly procedure: string;
}

const BAD_VALUES: readonly unknown[] = ['false', 'no', [], {}];
const FLAGS: readonly Flag[] = ['dryRun', 'override'];

let secured: SecuredRuntime;
let admin: AuthHeaders;
let trpc: (request: Request) => Promise<Response>;
const clusterId = randomUUID();
const operations: Flagged[] = [];
/** Every GET and DELETE with the names of its query parameters, for the repeated-parameter test. */
const queried: { method: string; path: string; names: string[] }[] = [];

/** Path parameters: the fixture cluster, a settable key, and harmless ids for the rest. */
function parameterValue(name: string): string {
  if (name === 'clusterId') return clusterId;
  if (name === 'key') return 'audit.retention';
  return /id$/i.test(name) ? '0b7f0f0e-0000-4000-8000-000000000000' : 'flags-test';
}

function parameters(path: string): Record<string, string> {
  return Object.fromEntries([...path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => [name, parameterValue(name)]));
}

function urlOf(path: string, query = ''): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_all, name: string) => encodeURIComponent(parameterValue(name)));
  return `http://127.0.0.1/api/v1${filled}${query}`;
}

function rest(operation: Flagged, query: string, body: unknown): Promise<Response> {
  return secured.rest(
    new Request(urlOf(operation.path, query), {
      method: operation.method.toUpperCase(),
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

function procedureFor(method: string, path: string): string {
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { meta?: { openapi?: { method: string; path: string } } } }
  >;
  const found = Object.entries(procedures).find(
    ([, procedure]) =>
      procedure._def.meta?.openapi?.method.toLowerCase() === method && procedure._def.meta.openapi.path === path,
  );
  if (!found) throw new Error(`no procedure serves ${method} ${path}`);
  return found[0];
}

async function fieldsRefused(response: Response): Promise<string[]> {
  const body = (await response.json()) as { type?: string; errors?: { field: string }[] };
  return response.status === 400 && body.type === 'validation-failed' ? (body.errors ?? []).map((e) => e.field) : [];
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  trpc = createTrpcHandler(() => Promise.resolve(secured.runtime));
  await insertClusterRow(secured.runtime.prisma, { id: clusterId, name: 'flags' });
  const document = (await (await secured.rest(new Request('http://127.0.0.1/api/v1/openapi.json'))).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      const body = operation.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      const query = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      if ((method === 'get' || method === 'delete') && query.size > 0)
        queried.push({ method, path, names: [...query] });
      const flags = FLAGS.filter((flag) => flag in body || query.has(flag));
      // A read's `dryRun` (the audit list's) is a filter, not the flag of a change.
      if (flags.length === 0 || method === 'get') continue;
      operations.push({ method, path, flags, procedure: procedureFor(method, path) });
    }
  }
}, 60_000);

afterAll(async () => {
  await secured.close();
});

describe('flags, over every operation that takes one', () => {
  it('are found in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations).toContainEqual(
      expect.objectContaining({ method: 'post', path: '/clusters/{clusterId}/queues/{queueName}/purge' }),
    );
    expect(operations).toContainEqual(
      expect.objectContaining({ method: 'delete', path: '/clusters/{clusterId}/queues/{queueName}' }),
    );
    expect(operations.filter((operation) => operation.flags.includes('override')).length).toBeGreaterThan(5);
  });

  it.each(BAD_VALUES.map((value) => [JSON.stringify(value), value]))(
    'refuse %s as a flag in the body, on REST and tRPC, with a 400 naming it and nothing changed',
    async (_name, value) => {
      const auditBefore = await secured.runtime.prisma.auditEvent.count();
      const failures: string[] = [];
      for (const operation of operations) {
        for (const flag of operation.flags) {
          const input = { ...parameters(operation.path), [flag]: value };
          const overRest = await fieldsRefused(await rest(operation, '', input));
          if (!overRest.includes(flag)) failures.push(`REST ${operation.method} ${operation.path} ${flag}`);
          const overTrpc = await trpc(
            new Request(`http://127.0.0.1/api/trpc/${operation.procedure}`, {
              method: 'POST',
              headers: { ...admin, 'content-type': 'application/json' },
              body: JSON.stringify(input),
            }),
          );
          if (!(await fieldsRefused(overTrpc)).includes(flag)) failures.push(`tRPC ${operation.procedure} ${flag}`);
        }
      }
      expect(failures).toEqual([]);
      expect(await secured.runtime.prisma.auditEvent.count()).toBe(auditBefore);
    },
    120_000, // some 90 requests per value on REST and tRPC: slow on two busy cores
  );

  it('refuse a flag given twice in the query, in either order, or not exactly true or false', async () => {
    const auditBefore = await secured.runtime.prisma.auditEvent.count();
    const failures: string[] = [];
    for (const operation of operations) {
      for (const flag of operation.flags) {
        for (const query of [`?${flag}=true&${flag}=false`, `?${flag}=false&${flag}=true`, `?${flag}=no`]) {
          const refused = await fieldsRefused(await rest(operation, query, parameters(operation.path)));
          if (!refused.includes(flag)) failures.push(`${operation.method} ${operation.path}${query}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await secured.runtime.prisma.auditEvent.count()).toBe(auditBefore);
  }, 120_000);
});

describe('a query parameter given twice', () => {
  it('is refused on every GET and DELETE that declares it, naming it, before anything else is read', async () => {
    expect(queried.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const operation of queried) {
      for (const name of operation.names) {
        const query = `?${name}=true&${name}=true`;
        const response = await secured.rest(
          new Request(urlOf(operation.path, query), { method: operation.method.toUpperCase(), headers: admin }),
        );
        const body = (await response.json()) as { errors?: { field: string; message: string }[] };
        const named = body.errors?.find((error) => error.field === name);
        if (response.status !== 400 || named?.message !== 'must be given at most once')
          failures.push(
            `${operation.method} ${operation.path}${query}: ${String(response.status)} ${JSON.stringify(body.errors)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('a dry run asked anywhere', () => {
  it('wins over ?dryRun=false on a body operation', async () => {
    const setting = await callRest(secured.rest, admin, 'PUT', '/settings/audit.retention?dryRun=false', {
      value: '30d',
      dryRun: true,
    });
    expect(setting).toMatchObject({ status: 200, json: { dryRun: true } });
    const role = await callRest(secured.rest, admin, 'POST', '/roles?dryRun=false', {
      name: 'flags-dry-run',
      permissions: ['queue:read'],
      dryRun: true,
    });
    expect(role.json).toMatchObject({ dryRun: true });
    expect((await callRest(secured.rest, admin, 'GET', '/settings/audit.retention')).json).toMatchObject({
      value: '365d',
    });
    expect(await secured.runtime.prisma.role.count({ where: { name: 'flags-dry-run' } })).toBe(0);
  });

  it('wins on a DELETE, whether it comes in the body or the query', async () => {
    const created = await callRest(secured.rest, admin, 'POST', '/roles', {
      name: 'flags-kept',
      permissions: ['queue:read'],
    });
    const id = (created.json.role as { id: string }).id;
    for (const [query, body] of [
      ['', { dryRun: true }],
      ['?dryRun=false', { dryRun: true }],
      ['?dryRun=true', { dryRun: false }],
    ] as const) {
      const response = await callRest(secured.rest, admin, 'DELETE', `/roles/${id}${query}`, body);
      expect(response, `${query} ${JSON.stringify(body)}`).toMatchObject({ status: 200, json: { dryRun: true } });
    }
    expect(await secured.runtime.prisma.role.count({ where: { id } })).toBe(1);
    // An override that disagrees between the query and the body is refused rather than guessed.
    const conflicting = await callRest(
      secured.rest,
      admin,
      'DELETE',
      `/clusters/${clusterId}/queues/q?override=false`,
      {
        override: true,
      },
    );
    expect(conflicting).toMatchObject({ status: 400, json: { errors: [{ field: 'override' }] } });
  });
});
