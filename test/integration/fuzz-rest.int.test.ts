// Schema-driven fuzzing of the REST API (issue 34): every operation of the OpenAPI document, called through the
// runtime's real REST handler (the one HTTP uses) on a real PostgreSQL as an admin, a viewer and no one, with
// requests fast-check makes from the operation's own schemas — shaped values, boundaries, wrong types, extra and
// missing fields, huge and unicode strings, repeated query parameters, malformed bodies, and card numbers, IBANs and
// JWTs. Every answer: no 500 (a 5xx only where docs/api.md documents it, e.g. 502 live-read-failed), problem+json
// of a documented type and status for every error, no stack trace or internal message, a success valid against the
// operation's response schema, no seeded card, IBAN or JWT in clear that the request itself did not carry, and none
// in clear in any refusal, not even the caller's own.
// Mutations run with ?dryRun=true (no broker exists here; the registered cluster has none), and afterwards the audit
// log holds no change that was not a dry run. Seeded: FUZZ_SEED replays a run, FUZZ_RUNS=n runs n times the cases.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import { insertFuzzClusters } from '@test/fuzz-clusters.ts';
import {
  FUZZ_SEED,
  internalsIn,
  type JsonSchema,
  piiIn,
  realChangesSince,
  runs,
  stringArbitrary,
  valueArbitrary,
  wrongType,
} from '@test/fuzz.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { type AuthHeaders, signIn } from '@test/sign-in.ts';

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: { 'application/json'?: { schema?: JsonSchema } } };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}
interface Target {
  readonly method: string;
  readonly path: string;
  readonly operation: Operation;
}
type Principal = 'admin' | 'viewer' | 'anonymous';
interface FuzzRequest {
  readonly principal: Principal;
  readonly url: string;
  readonly body?: string;
  readonly contentType: string;
}

/** Cases per operation in CI (about 2,500 in all); FUZZ_RUNS multiplies them. */
const CASES_PER_OPERATION = runs(16);
const BASE = 'http://127.0.0.1/api/v1';
const DOCUMENTED_5XX_ALLOWED = (type: string) => type !== 'internal-error';

let secured: SecuredRuntime;
const auth: Partial<Record<Principal, AuthHeaders | Record<string, never>>> = { anonymous: {} };
const targets: Target[] = [];
const known: Record<string, string[]> = {};
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
const validators = new Map<Target, ValidateFunction | null>();
const documented = documentedProblemTypes();
/** The document's Problem schema, every error answer checked against it. */
let problemSchema: ValidateFunction | undefined;
const findings: string[] = [];
const echoes: string[] = [];
let cases = 0;
const timeByOperation = new Map<string, number>();
const answers = new Map<string, number>();
let startedAt: Date;

/** docs/api.md's table of problem types: each type with the statuses it may carry. */
function documentedProblemTypes(): Map<string, number[]> {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
  const types = new Map<string, number[]>();
  for (const match of text.matchAll(/^\| `([a-z-]+)`\s*\|\s*([\d, ]+?)\s*\|/gm)) {
    types.set(
      match[1] ?? '',
      (match[2] ?? '').split(',').map((status) => Number(status.trim())),
    );
  }
  return types;
}

beforeAll(async () => {
  startedAt = new Date();
  secured = await openSecuredRuntime();
  const prisma = secured.runtime.prisma;
  auth.admin = (await secured.signedIn()).auth;
  const viewerPassword = 'viewer fuzz passphrase 7';
  const viewerId = randomUUID();
  await prisma.user.create({
    data: { id: viewerId, username: 'vic', providerId: 'local', passwordHash: await hashPassword(viewerPassword) },
  });
  const viewerRole = await prisma.role.findFirstOrThrow({ where: { name: 'viewer' } });
  await prisma.grant.create({
    data: { id: randomUUID(), roleId: viewerRole.id, principal: 'USER', userId: viewerId, scopeKind: 'GLOBAL' },
  });
  auth.viewer = await signIn(secured.rest, 'http://127.0.0.1', { username: 'vic', password: viewerPassword });
  // A cluster whose node listens nowhere and one whose password no key opens (fuzz-clusters.ts).
  const { clusterId, lostKeyClusterId } = await insertFuzzClusters(prisma);
  const users = await prisma.user.findMany({ select: { id: true } });
  const roles = await prisma.role.findMany({ select: { id: true } });
  const nil = '00000000-0000-0000-0000-000000000000';
  Object.assign(known, {
    clusterId: [clusterId, clusterId, lostKeyClusterId, nil],
    id: [clusterId, ...users.map((user) => user.id), ...roles.map((role) => role.id), nil],
    userId: users.map((user) => user.id),
    roleId: roles.map((role) => role.id),
    key: ['audit.retention', 'safety.bulk-cap', 'flotilla.features.alerting.enabled', 'pair:admin@127.0.0.1'],
    queueName: ['orders', 'DLQ'],
    address: ['orders', 'DLQ'],
    providerId: ['local', 'corp'],
    environment: ['prod'],
  });
  const document = (await (await secured.rest(new Request(`${BASE}/openapi.json`))).json()) as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: { Problem: JsonSchema } };
  };
  problemSchema = ajv.compile(document.components.schemas.Problem);
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) targets.push({ method, path: template, operation });
  }
});

afterAll(async () => {
  await (secured as SecuredRuntime | undefined)?.close();
});

function principalsFor(target: Target): Principal[] {
  // Signing out would end the session every later case uses; signing in is what anonymous callers do.
  if (target.path === '/auth/logout' || target.path === '/auth/login') return ['anonymous'];
  return ['admin', 'admin', 'admin', 'viewer', 'viewer', 'anonymous'];
}

function queryValue(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryValue);
  if (typeof value === 'string') return [value];
  if (value === null || value === undefined) return [''];
  return [JSON.stringify(value)];
}

function requestArbitrary(target: Target): fc.Arbitrary<FuzzRequest> {
  const parameters = target.operation.parameters ?? [];
  const honoursDryRun = parameters.some((parameter) => parameter.name === 'dryRun');
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter(
    (parameter) => parameter.in === 'query' && parameter.name !== 'dryRun' && parameter.name !== 'override',
  );
  const generation = { known, wrongTypeRate: 0.08 };
  const pathValues = fc.record(
    Object.fromEntries(
      pathParameters.map((parameter) => [
        parameter.name,
        fc.oneof(
          { arbitrary: fc.constantFrom(...(known[parameter.name] ?? ['x'])), weight: 3 },
          {
            // An empty or dot segment would reach another route (`/grants/` is the list, `/rules/..` is `/`).
            arbitrary: stringArbitrary({ ...parameter.schema, maxLength: 300 }, known[parameter.name]).filter(
              (value) => value !== '' && value !== '.' && value !== '..',
            ),
            weight: 2,
          },
        ),
      ]),
    ),
  );
  const queryValues = fc.record(
    Object.fromEntries(
      queryParameters.map((parameter) => [
        parameter.name,
        fc.option(valueArbitrary(parameter.schema ?? {}, generation, 1, parameter.name), { nil: undefined }),
      ]),
    ),
    { requiredKeys: [] },
  );
  const repeated = fc.option(
    fc.tuple(
      fc.constantFrom('page', 'q', 'sort', 'clusterId', 'override', ...queryParameters.map((p) => p.name)),
      wrongType,
    ),
    { nil: undefined, freq: 4 },
  );
  const bodySchema = target.operation.requestBody?.content?.['application/json']?.schema;
  const hasBody = target.method !== 'get' && (bodySchema !== undefined || target.method !== 'delete');
  const body: fc.Arbitrary<string | undefined> = hasBody
    ? fc.oneof(
        {
          arbitrary: valueArbitrary(bodySchema ?? { type: 'object' }, generation).map((v) => JSON.stringify(v)),
          weight: 12,
        },
        {
          arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"a":1,}', '\u00ff\u00fe', '{"dryRun":"no"}'),
          weight: 1,
        },
      )
    : fc.constant(undefined);
  const contentType = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 15 },
    { arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data'), weight: 1 },
  );
  return fc
    .record({
      principal: fc.constantFrom(...principalsFor(target)),
      pathValues,
      queryValues,
      repeated,
      body,
      contentType,
    })
    .map(({ principal, pathValues: values, queryValues: query, repeated: twice, body: text, contentType: type }) => {
      const filled = target.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
        encodeURIComponent(values[name] ?? 'x'),
      );
      const url = new URL(`${BASE}${filled}`);
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined) continue;
        for (const one of queryValue(value)) url.searchParams.append(name, one);
      }
      if (twice) for (const one of [...queryValue(twice[1]), 'x']) url.searchParams.append(twice[0], one);
      // Never a real change: a dry run wins wherever it is asked (docs/api.md, Mutations).
      if (honoursDryRun) url.searchParams.append('dryRun', 'true');
      return { principal, url: url.toString(), body: text, contentType: type };
    });
}

function validatorFor(target: Target): ValidateFunction | null {
  if (!validators.has(target)) {
    const schema = target.operation.responses['200']?.content?.['application/json']?.schema;
    validators.set(target, schema ? ajv.compile(schema) : null);
  }
  return validators.get(target) ?? null;
}

function problemType(text: string): string {
  try {
    return String((JSON.parse(text) as { type?: unknown }).type);
  } catch {
    return '(no JSON)';
  }
}

function describeCase(target: Target, request: FuzzRequest, status: number): string {
  const body = request.body === undefined ? '' : ` body=${request.body.slice(0, 300)}`;
  return `${target.method.toUpperCase()} ${target.path} as ${request.principal} → ${status}: ${request.url.slice(0, 300)}${body}`;
}

async function check(target: Target, request: FuzzRequest): Promise<void> {
  cases++;
  const headers: Record<string, string> = { ...auth[request.principal] };
  if (request.body !== undefined) headers['content-type'] = request.contentType;
  const response = await secured.rest(
    new Request(request.url, { method: target.method.toUpperCase(), headers, body: request.body }),
  );
  const text = await response.text();
  const where = describeCase(target, request, response.status);
  const kind = response.status < 400 ? String(response.status) : `${response.status} ${problemType(text)}`;
  answers.set(kind, (answers.get(kind) ?? 0) + 1);
  const problems: string[] = [];
  const internals = internalsIn(text);
  if (internals.length > 0) problems.push(`carries ${internals.join(', ')}: ${text.slice(0, 400)}`);
  if (response.status >= 400) {
    let problem: { type?: string; title?: string; status?: number } = {};
    try {
      problem = JSON.parse(text) as typeof problem;
    } catch {
      problems.push(`error body is no JSON: ${text.slice(0, 200)}`);
    }
    if (!response.headers.get('content-type')?.startsWith('application/problem+json'))
      problems.push(`error content-type ${response.headers.get('content-type')}`);
    const statuses = documented.get(problem.type ?? '');
    if (!statuses) problems.push(`undocumented problem type ${problem.type}`);
    else if (!statuses.includes(response.status)) problems.push(`${problem.type} with undocumented status`);
    if (problem.status !== response.status) problems.push(`problem status ${problem.status}`);
    if (problemSchema && !problemSchema(problem))
      problems.push(`problem invalid against its schema: ${ajv.errorsText(problemSchema.errors)}`);
    if (response.status >= 500 && !DOCUMENTED_5XX_ALLOWED(problem.type ?? 'internal-error'))
      problems.push(`server error ${problem.type}`);
  } else if (response.status === 200) {
    const validate = validatorFor(target);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      problems.push(`success body is no JSON: ${text.slice(0, 200)}`);
    }
    // A dry run asked in the query wins wherever else the call says otherwise (docs/api.md, Mutations).
    if (new URL(request.url).searchParams.get('dryRun') === 'true' && (json as { dryRun?: unknown }).dryRun === false)
      problems.push(`asked as a dry run, answered dryRun: false: ${text.slice(0, 200)}`);
    if (validate && json !== undefined && !validate(json))
      problems.push(`answer invalid against its schema: ${ajv.errorsText(validate.errors).slice(0, 300)}`);
  }
  // Personal data: none in clear. A refusal passes the content policy whole (its path and what it quotes); a success
  // echoing the caller's own input (a dry run's preview of an environment's description: Flotilla's own settings, not
  // content the policy governs) is counted and reported (docs/security.md, "Findings of fuzzing").
  const sent = new Set(piiIn(`${decodeURIComponent(request.url)} ${request.body ?? ''}`));
  for (const kind of piiIn(text)) {
    if (sent.has(kind) && response.status < 400) echoes.push(`${kind}: ${where}`);
    else if (sent.has(kind)) problems.push(`a refusal echoed the caller's ${kind} in clear: ${text.slice(0, 300)}`);
    else problems.push(`a seeded ${kind} in clear the request did not carry: ${text.slice(0, 300)}`);
  }
  if (problems.length > 0) findings.push(`${where}\n    ${problems.join('\n    ')}`);
}

describe('REST fuzzing from the OpenAPI document', () => {
  it('covers every operation of the document', () => {
    expect(targets.length).toBeGreaterThan(100);
    expect(documented.get('validation-failed')).toEqual([400]);
  });

  it('answers every generated request without a 500, a leak or an answer off its schema', async () => {
    const began = performance.now();
    for (const [index, target] of targets.entries()) {
      const before = performance.now();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(target), async (request) => {
          await check(target, request);
        }),
        { seed: FUZZ_SEED + index, numRuns: CASES_PER_OPERATION },
      );
      timeByOperation.set(`${target.method.toUpperCase()} ${target.path}`, performance.now() - before);
    }
    const slowest = [...timeByOperation].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.info(`fuzz-rest slowest: ${slowest.map(([name, ms]) => `${name} ${Math.round(ms)} ms`).join('; ')}`);
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    console.info(
      `fuzz-rest: ${cases} cases over ${targets.length} operations in ${seconds} s (seed ${FUZZ_SEED}); ` +
        `${echoes.length} answers echoed a seed the request carried`,
    );
    const tally = [...answers].sort((a, b) => b[1] - a[1]);
    console.info(`fuzz-rest answers: ${tally.map(([kind, count]) => `${kind} ×${count}`).join(', ')}`);
    if (echoes.length > 0) console.info(`fuzz-rest echoes (first 20):\n  ${echoes.slice(0, 20).join('\n  ')}`);
    expect(findings.slice(0, 40), `${findings.length} findings (seed ${FUZZ_SEED})`).toEqual([]);
    // The cases reach the code behind validation, not only the edge's refusals: successes (dry runs among them), the
    // cluster whose node listens nowhere, and the cluster whose credentials no key opens.
    expect(answers.get('200') ?? 0).toBeGreaterThan(cases / 20);
    expect(answers.get('502 live-read-failed') ?? 0).toBeGreaterThan(0);
    expect(answers.get('409 credentials-unreadable') ?? 0).toBeGreaterThan(0);
  }, 600_000);

  it('reads back what the fuzzing left (audit rows of its dry runs among it) with no seed in clear', async () => {
    const before = findings.length;
    const reads = targets.filter((target) => target.method === 'get');
    for (const target of reads) {
      for (const principal of ['admin', 'viewer'] as const) {
        const filled = target.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
          encodeURIComponent(known[name]?.[0] ?? 'x'),
        );
        await check(target, { principal, url: `${BASE}${filled}`, contentType: 'application/json' });
      }
    }
    expect(reads.length).toBeGreaterThan(50);
    expect(findings.slice(before)).toEqual([]);
    // The audit log holds the fuzzing's dry runs, seeds among their parameters, and failed sign-ins whose username
    // (the row's target) was one (one more here, whatever the seed): stored masked, read masked.
    await secured.rest(
      new Request(`${BASE}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'orders.4111111111111111', password: 'not the password' }),
      }),
    );
    const audit = await secured.rest(new Request(`${BASE}/audit?pageSize=500`, { headers: auth.admin }));
    const text = await audit.text();
    expect(audit.status).toBe(200);
    expect((JSON.parse(text) as { total: number }).total).toBeGreaterThan(100);
    const items = (JSON.parse(text) as { items: unknown[] }).items;
    expect(items.filter((item) => piiIn(JSON.stringify(item)).length > 0)).toEqual([]);
  });

  it('changed nothing: every audited change since the fuzzing began was a dry run', async () => {
    expect(await realChangesSince(secured, startedAt)).toEqual([]);
  });
});
