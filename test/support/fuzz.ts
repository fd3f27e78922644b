// Schema-driven fuzzing (issue 34): fast-check arbitraries made from a JSON schema (an OpenAPI operation's or an MCP
// tool's), the personal data seeded into them, and the checks every answer must pass (no stack trace or internal
// message, no seed in clear). Seeded and bounded: FUZZ_SEED replays a run, FUZZ_RUNS multiplies its cases.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import type { SecuredRuntime } from './secured-runtime.ts';
import { type AuthHeaders, signIn } from './sign-in.ts';

/** The JSON schema, as far as the generators read it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
}

/** The run's seed: FUZZ_SEED when given (to replay a failure), else a fixed one, so CI runs are repeatable. */
export const FUZZ_SEED = Number.parseInt(process.env.FUZZ_SEED ?? '', 10) || 20_261_205;

/** FUZZ_RUNS multiplies every suite's case count ("more on demand"); 1 in CI. */
const FUZZ_SCALE = Math.max(1, Number.parseFloat(process.env.FUZZ_RUNS ?? '') || 1);

export function runs(base: number): number {
  return Math.max(1, Math.round(base * FUZZ_SCALE));
}

/**
 * Personal data seeded into generated strings: Luhn-valid card numbers (plain and spaced), IBANs with valid check
 * digits (upper and lower case) and a JWT. `canonical` is how each is searched for in an answer: digits and letters
 * only, upper case, so a spaced, dashed or lower-case copy is found too.
 */
const PII_SEEDS: readonly { readonly value: string; readonly kind: string }[] = [
  { value: '4111111111111111', kind: 'card' },
  { value: '5555 5555 5555 4444', kind: 'card' },
  { value: '378282246310005', kind: 'card' },
  { value: 'DE89370400440532013000', kind: 'iban' },
  { value: 'gb82west12345698765432', kind: 'iban' },
  {
    value:
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    kind: 'jwt',
  },
];

function canonical(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** What an answer must never hold in clear: the canonical form of each seed (a JWT's signed payload for JWTs). */
const PII_NEEDLES = PII_SEEDS.map((seed) => ({
  kind: seed.kind,
  needle: seed.kind === 'jwt' ? canonical(seed.value.split('.')[1] ?? '') : canonical(seed.value),
}));

/** The kinds of seeded personal data found in clear in a text (an answer, a log line, a request). */
export function piiIn(text: string): string[] {
  const flat = canonical(text);
  return PII_NEEDLES.filter(({ needle }) => flat.includes(needle)).map(({ kind }) => kind);
}

/** A seed alone or inside a name, a filter or a sentence, as a broker name or a free-text field may carry one. */
export const piiString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...PII_SEEDS.map((seed) => seed.value)), fc.constantFrom('', 'orders.', 'pan = ', 'ref '))
  .map(([seed, prefix]) => `${prefix}${seed}`);

/**
 * What no answer may carry: a stack frame, a source or module path, an engine's error class or message, SQL. A
 * problem's `detail` is for the caller; the log keeps the rest under the request id.
 */
const INTERNALS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'a stack frame', pattern: /\bat (?:async )?\S+ \([^()]*:\d+:\d+\)|(?:\n|\\n)\s+at \S|\bat \S+:\d+:\d+/ },
  { what: 'a source path', pattern: /\/src\/|\/test\/|node_modules|\.tsx?:\d+|file:\/\// },
  { what: 'an engine error class', pattern: /\b(?:TypeError|ReferenceError|RangeError|SyntaxError):/ },
  { what: 'Prisma', pattern: /PrismaClient|prisma\.\w+\.\w+\(|Invalid `prisma|P20\d\d\b/ },
  {
    what: 'SQL or a database error',
    // Not SELECT: the SQL console's own language (its refusals show a SELECT to write).
    pattern:
      /\b(?:INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|duplicate key value|violates .+ constraint|relation "\w+"|syntax error at or near/,
  },
  {
    what: 'an internal tRPC message',
    pattern: /INTERNAL_SERVER_ERROR|Cannot read propert|is not a function|undefined is not/,
  },
];

export function internalsIn(text: string): string[] {
  return INTERNALS.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what);
}

const UNICODE_SAMPLES = ['Zürich', 'キュー', '🚀📦', 'e\u0301', 'ﬁ', '\u00a0', 'İı', 'Ω≈ç√', '\ufeff', 'a\u200bb'];

/** Strings as callers send them: plain, unicode, boundary lengths, huge, hostile, and the personal-data seeds. */
export function stringArbitrary(schema: JsonSchema, known: readonly string[] = []): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  const length = (n: number) => fc.string({ minLength: n, maxLength: n, unit: 'grapheme-ascii' });
  const choices: fc.Arbitrary<string>[] = [
    fc.string({ minLength: min, maxLength: Math.min(max, min + 40) }),
    fc.string({ maxLength: 30, unit: 'grapheme' }),
    fc.constantFrom(...UNICODE_SAMPLES),
    piiString,
    fc.constantFrom('', ' ', '*', '#', '..', '../..', '%2F', '\\', "' OR 1=1 --", '<script>', '${x}', '{{x}}'),
    length(Math.min(max, 10_000)),
    length(Math.min(max + 1, 10_001)),
    fc.constant('x'.repeat(70_000)),
  ];
  if (min > 0) choices.push(length(min - 1));
  if (schema.format === 'uuid') choices.push(fc.uuid(), fc.uuid(), fc.uuid());
  if (schema.format === 'date-time')
    choices.push(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.constant('2026-02-30T25:00:00Z'),
    );
  if (schema.format === 'email') choices.push(fc.emailAddress());
  // A value the installation knows (a cluster's id, a discriminator's word) half the time: past validation.
  if (known.length > 0) return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: choices.length }, ...choices);
  return fc.oneof(...choices);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
  const max = Math.min(schema.maximum ?? schema.exclusiveMaximum ?? 100_000, Number.MAX_SAFE_INTEGER);
  const boundaries = [min, max, min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308];
  return fc.oneof(
    integer
      ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) })
      : fc.double({ min, max, noNaN: true }),
    fc.constantFrom(...boundaries),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
}

/** A value of any JSON type: what a wrong-typed field carries. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    '',
    'true',
    '[]',
    [],
    {},
    [null],
    { '': 1 },
    JSON.parse('{"__proto__":{"polluted":1}}'),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  piiString,
);

export interface Generation {
  /** Values for fields by name (a cluster id that exists, a queue name, a setting key). */
  readonly known?: Readonly<Record<string, readonly string[]>>;
  /** How often (0–1) a value is replaced by one of the wrong type. */
  readonly wrongTypeRate?: number;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/**
 * Values for a schema: mostly shaped by it (so a call gets past validation into the code behind), sometimes wrong
 * (types, extra fields, missing required ones, bounds passed).
 */
export function valueArbitrary(
  schema: JsonSchema,
  generation: Generation = {},
  depth = 0,
  field = '',
): fc.Arbitrary<unknown> {
  const shaped = shapedArbitrary(schema, generation, depth, field);
  const rate = generation.wrongTypeRate ?? 0.1;
  if (rate <= 0 || depth > 4) return shaped;
  const wrongWeight = Math.max(1, Math.round(rate * 100));
  return fc.oneof({ arbitrary: shaped, weight: 100 - wrongWeight }, { arbitrary: wrongType, weight: wrongWeight });
}

function shapedArbitrary(
  schema: JsonSchema,
  generation: Generation,
  depth: number,
  field: string,
): fc.Arbitrary<unknown> {
  const known = generation.known?.[field] ?? [];
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0)
    return fc.oneof(
      { arbitrary: fc.constantFrom(...schema.enum), weight: 9 },
      { arbitrary: stringArbitrary({}), weight: 1 },
    );
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((one) => shapedArbitrary(one, generation, depth, field)));
  if (schema.allOf && schema.allOf.length > 0)
    return shapedArbitrary(Object.assign({}, ...schema.allOf) as JsonSchema, generation, depth, field);
  const types = typesOf(schema);
  if (types.length === 0) return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringArbitrary(schema, known);
        case 'integer':
          return numberArbitrary(schema, true);
        case 'number':
          return numberArbitrary(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return arrayArbitrary(schema, generation, depth, field);
        case 'object':
          return objectArbitrary(schema, generation, depth);
        default:
          return wrongType;
      }
    }),
  );
}

function arrayArbitrary(schema: JsonSchema, generation: Generation, depth: number, field: string) {
  if (depth > 4) return fc.constant([]);
  const item = valueArbitrary(schema.items ?? {}, generation, depth + 1, field);
  const min = schema.minItems ?? 0;
  const max = Math.min(schema.maxItems ?? 5, min + 5);
  return fc.oneof(
    { arbitrary: fc.array(item, { minLength: min, maxLength: max }), weight: 8 },
    { arbitrary: fc.array(item, { minLength: max + 1, maxLength: max + 2 }), weight: 1 },
    { arbitrary: fc.constant([]), weight: 1 },
  );
}

function objectArbitrary(schema: JsonSchema, generation: Generation, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant({});
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, valueArbitrary(property, generation, depth + 1, name)]),
  );
  const optional = Object.keys(properties).filter((name) => !required.has(name));
  const shaped = fc.record(fields, { requiredKeys: [...required].filter((name) => name in fields) });
  const extras = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'dryRun')),
    wrongType,
    {
      maxKeys: 3,
    },
  );
  return fc.oneof(
    { arbitrary: shaped, weight: 7 },
    // An unknown field beside the known ones.
    { arbitrary: fc.tuple(shaped, extras).map(([known, extra]) => ({ ...extra, ...(known as object) })), weight: 1 },
    // A required field left out.
    {
      arbitrary: shaped.map((value) => {
        const left = [...required][0] ?? optional[0] ?? '';
        return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([name]) => name !== left));
      }),
      weight: 1,
    },
    { arbitrary: fc.constant({}), weight: 1 },
  );
}

/** docs/api.md's table of problem types: each type with the statuses it may carry (the tRPC and stream suites'). */
export function documentedProblems(apiDoc: string): ReadonlyMap<string, readonly number[]> {
  const rows = [...apiDoc.matchAll(/^\| `([a-z-]+)`\s*\|\s*([\d, ]+?)\s*\|/gm)];
  return new Map(rows.map(([, type = '', statuses = '']) => [type, statuses.split(',').map((one) => Number(one))]));
}

/**
 * What is wrong with an error answer as the problem+json every edge answers (docs/api.md): its content type, a type
 * docs/api.md lists with this status, the status in the body, the request id in the body and `X-Request-Id`, and
 * no 5xx but those docs/api.md documents (`internal-error` never). Answers the problem as parsed, or undefined.
 */
export function problemIssues(
  response: Response,
  text: string,
  documented: ReadonlyMap<string, readonly number[]>,
): { problem: Record<string, unknown> | undefined; issues: string[] } {
  const issues: string[] = [];
  let problem: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      problem = parsed as Record<string, unknown>;
    else issues.push(`error body is no object: ${text.slice(0, 200)}`);
  } catch {
    issues.push(`error body is no JSON: ${text.slice(0, 200)}`);
  }
  if (!response.headers.get('content-type')?.startsWith('application/problem+json'))
    issues.push(`error content-type ${response.headers.get('content-type')}`);
  const type = String(problem?.type);
  const statuses = documented.get(type);
  if (!statuses) issues.push(`undocumented problem type ${type}`);
  else if (!statuses.includes(response.status)) issues.push(`${type} with undocumented status ${response.status}`);
  if (problem && problem.status !== response.status) issues.push(`problem status ${String(problem.status)}`);
  if (problem && typeof problem.title !== 'string') issues.push('problem without a title');
  if (problem && (typeof problem.requestId !== 'string' || problem.requestId !== response.headers.get('x-request-id')))
    issues.push(`request id ${String(problem.requestId)} (header ${response.headers.get('x-request-id')})`);
  if (response.status >= 500 && (type === 'internal-error' || !statuses)) issues.push(`server error ${type}`);
  return { problem, issues };
}

/** A text as an HTTP header carries it: its UTF-8 bytes read as Latin-1, without the CR, LF and NUL no header holds. */
export function headerValue(text: string): string {
  return Buffer.from(text.replace(/[\r\n\0]/g, ''), 'utf8')
    .toString('latin1')
    .trim();
}

/**
 * What one fuzzing run saw (the tRPC and stream suites'): its cases, answers by kind, the answers that echoed a seed
 * their own request carried (counted, not failed: docs/security.md, "Findings of fuzzing") and its findings.
 */
export class FuzzRun {
  readonly findings: string[] = [];
  readonly echoes: string[] = [];
  readonly answers = new Map<string, number>();
  cases = 0;
  private began = performance.now();

  constructor(private readonly name: string) {}

  /** The fuzzing starts now (after its setup). */
  begin(): void {
    this.began = performance.now();
  }

  answered(kind: string): void {
    this.answers.set(kind, (this.answers.get(kind) ?? 0) + 1);
  }

  /** The seeds an answer holds in clear: an echo when its request carried that kind, otherwise a problem. */
  seedProblems(sent: string, answer: string, where: string): string[] {
    const carried = new Set(piiIn(sent));
    return piiIn(answer).flatMap((kind) => {
      if (!carried.has(kind)) return [`a seeded ${kind} in clear the request did not carry: ${answer.slice(0, 400)}`];
      this.echoes.push(`${kind}: ${where.slice(0, 240)}`);
      return [];
    });
  }

  found(where: string, problems: readonly string[]): void {
    if (problems.length > 0) this.findings.push(`${where}\n    ${problems.join('\n    ')}`);
  }

  /** One line of what the run did (and the first echoes), for the log of CI. */
  report(of: string): void {
    const seconds = ((performance.now() - this.began) / 1000).toFixed(1);
    const tally = [...this.answers].sort((a, b) => b[1] - a[1]).map(([kind, count]) => `${kind} ×${count}`);
    console.info(
      `${this.name}: ${this.cases} cases ${of} in ${seconds} s (seed ${FUZZ_SEED}); ${this.echoes.length} answers ` +
        `echoed a seed the request carried; ${tally.join(', ')}`,
    );
    if (this.echoes.length > 0)
      console.info(`${this.name} echoes (first 10):\n  ${this.echoes.slice(0, 10).join('\n  ')}`);
  }
}

/** A local user holding a built-in role everywhere, or on one cluster, signed in (the fuzzing suites' viewers). */
export async function signedInWithRole(
  secured: SecuredRuntime,
  user: { readonly username: string; readonly role: string; readonly clusterId?: string },
): Promise<AuthHeaders> {
  const password = `${user.username} fuzz passphrase 1`;
  const id = randomUUID();
  const { prisma } = secured.runtime;
  await prisma.user.create({
    data: { id, username: user.username, providerId: 'local', passwordHash: await hashPassword(password) },
  });
  const role = await prisma.role.findFirstOrThrow({ where: { name: user.role } });
  const scope =
    user.clusterId === undefined
      ? { scopeKind: 'GLOBAL' as const }
      : { scopeKind: 'CLUSTER' as const, scopeId: user.clusterId };
  await prisma.grant.create({ data: { id: randomUUID(), roleId: role.id, principal: 'USER', userId: id, ...scope } });
  return signIn(secured.rest, 'http://127.0.0.1', { username: user.username, password });
}

/** The audited changes since a moment that were no dry run (a fuzzing run must make none). */
export function realChangesSince(
  secured: SecuredRuntime,
  since: Date,
): Promise<{ action: string; target: string | null; outcome: string }[]> {
  return secured.runtime.prisma.auditEvent.findMany({
    where: {
      startedAt: { gte: since },
      dryRun: false,
      outcome: { notIn: ['DENIED', 'REFUSED', 'FAILED'] },
      action: { notIn: ['auth.sign-in', 'auth.sign-out', 'VIEW_CLEAR'] },
    },
    select: { action: true, target: true, outcome: true },
  });
}

/** Values the installation knows for input fields of these names: ids that exist (and the nil one), names, keys. */
export async function knownInputValues(
  secured: SecuredRuntime,
  clusters: { readonly clusterId: string; readonly lostKeyClusterId: string },
): Promise<Record<string, string[]>> {
  const { prisma } = secured.runtime;
  const userIds = (await prisma.user.findMany({ select: { id: true } })).map((user) => user.id);
  const roleIds = (await prisma.role.findMany({ select: { id: true } })).map((role) => role.id);
  const nil = '00000000-0000-0000-0000-000000000000';
  const names = ['orders', 'DLQ'];
  return {
    clusterId: [clusters.clusterId, clusters.clusterId, clusters.lostKeyClusterId, nil],
    id: [clusters.clusterId, ...userIds, ...roleIds, nil],
    userId: userIds,
    roleId: roleIds,
    key: ['audit.retention', 'safety.bulk-cap', 'flotilla.features.alerting.enabled', 'pair:admin@127.0.0.1'],
    queueName: names,
    queue: names,
    address: names,
    providerId: ['local', 'corp'],
    environment: ['prod'],
    source: ['audit', 'events', 'alerts', 'index', 'live'],
    window: ['15m', '1h', '6h', '24h', '7d'],
  };
}
