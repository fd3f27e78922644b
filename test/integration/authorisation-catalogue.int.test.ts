// The authorisation matrix generated from the catalogue (issue 34): every procedure of the application router (so
// every tRPC procedure and every REST route generated from one), every MCP tool and every route file outside the
// procedures, for each built-in role granted at each scope (global, an environment, one cluster) and anonymously,
// against each target (a cluster the grant reaches, another cluster, one that does not exist). The expected answer
// is derived from the procedure's declared access rule and the permission catalogue, never written per procedure, so
// a new procedure or route is in the matrix the moment it exists (a route file outside the procedures must be
// classified below, or the test fails naming it).
//
// What "allowed" means: the call got past the access gate — any answer but a denial (401 `unauthenticated`, 403
// `forbidden` / `csrf-token-missing` / `foreign-origin` / `password-change-required`, 404 `cluster-not-found`,
// 429 `audit-flood`). The inputs are deliberately minimal (the cluster id and `dryRun: true`), so most allowed calls
// end in a 400 `validation-failed`: the access gate runs before input validation (kernel/access/procedure.ts: the
// gate is a middleware before `.input()`), so a 400 proves the guard let the caller through, and a denial never
// depends on the input's shape. Every mutation honours `dryRun` or refuses it (test/architecture/procedures.test.ts),
// so nothing changes; there are no brokers, and a broker-unreachable answer is past the guard too.
//
// A denial must be exactly its shape: a global permission → 403 `forbidden` naming it; a cluster-scoped one on a
// visible cluster → 403 naming it; a cluster the caller cannot see → the cluster guard's one 404, and an unauthorised
// cluster and a nonexistent one answer byte for byte alike apart from the request id (status, headers, body).
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyProcedure } from '@trpc/server';
import { initTRPC, TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { appRouter } from '../../src/installation/app-router.ts';
import {
  CLUSTER_NOT_FOUND,
  moduleProcedure,
  type ProcedureMeta,
  router,
  type TrpcContext,
} from '../../src/modules/kernel/access/index.ts';
import { type Problem, ProblemError } from '../../src/modules/kernel/core/index.ts';
import { BUILT_IN_ROLES, type BuiltInRole } from '../../src/modules/kernel/plugin/descriptor.ts';
import { hashPassword } from '../../src/modules/kernel/security/server/passwords.ts';
import { handlePluginGateway, serveUiBundle } from '../../src/modules/feature/plugins/index.ts';
import { createTailHandler } from '../../src/modules/feature/sql/index.ts';
import { handleMcpRequest } from '../../src/modules/platform/mcp/index.ts';
import { TOOLS } from '../../src/modules/platform/mcp/server/catalogue.ts';
import { healthResponse, liveness } from '../../src/server/http/actuator.ts';
import { createTrpcContext } from '../../src/server/http/context.ts';
import { guardedRoute } from '../../src/server/http/guarded-route.ts';
import { createMcpHandler } from '../../src/server/http/mcp-route.ts';
import { createMetricsHandler } from '../../src/server/http/metrics-route.ts';
import { buildOpenApiDocument } from '../../src/server/http/openapi.ts';
import { createStreamHandler } from '../../src/server/http/stream-route.ts';
import { createTrpcHandler } from '../../src/server/http/trpc-route.ts';
import type { WebRuntime } from '../../src/server/runtime/web-runtime.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { issueToken } from '@test/mcp-client.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

type ScopeKind = 'GLOBAL' | 'ENVIRONMENT' | 'CLUSTER';
const SCOPES: readonly ScopeKind[] = ['GLOBAL', 'ENVIRONMENT', 'CLUSTER'];
type Target = 'own' | 'other' | 'unknown';
const TARGETS: readonly Target[] = ['own', 'other', 'unknown'];

interface Caller {
  readonly name: string;
  /** Undefined for the anonymous caller. */
  readonly role?: BuiltInRole;
  readonly scope?: ScopeKind;
  readonly headers: Readonly<Record<string, string>>;
  /** An API token of the same user, for the MCP edge. */
  readonly token?: string;
}

type Expected =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'unauthenticated' }
  | { readonly kind: 'forbidden'; readonly permission: string }
  | { readonly kind: 'cluster-not-found' }
  /** Refused whoever the user is (401 or 403): a route that hears no user credential. */
  | { readonly kind: 'refused' }
  /** A 403 of the filter chain before any permission: `password-change-required`, `csrf-token-missing`. */
  | { readonly kind: 'chain'; readonly type: string };

/** What a call answered: passed the gate (a result or a non-denial problem), or a problem. */
interface Outcome {
  readonly ok: boolean;
  readonly problem?: Problem;
}

const DENIAL_TYPES = new Set([
  'unauthenticated',
  'forbidden',
  'cluster-not-found',
  'password-change-required',
  'csrf-token-missing',
  'foreign-origin',
  'audit-flood',
]);

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let includedIn: Map<string, BuiltInRole>;
const callers: Caller[] = [];
const environmentId = randomUUID();
const ids: Record<Target, string> = { own: randomUUID(), other: randomUUID(), unknown: randomUUID() };

const PROCEDURES = Object.entries(
  (appRouter._def as unknown as { procedures: Record<string, AnyProcedure> }).procedures,
)
  .map(([procedurePath, procedure]) => ({
    path: procedurePath,
    type: (procedure._def as { type: 'query' | 'mutation' | 'subscription' }).type,
    meta: (procedure._def as { meta?: ProcedureMeta }).meta,
    takesClusterId: ((procedure._def as { inputs?: unknown[] }).inputs ?? []).some(
      (input) => 'clusterId' in ((input as { shape?: object }).shape ?? {}),
    ),
  }))
  .sort((a, b) => a.path.localeCompare(b.path));

function isClusterScoped(meta: ProcedureMeta | undefined): meta is ProcedureMeta & {
  access: { clusterPermission: string };
} {
  return typeof meta?.access === 'object' && 'clusterPermission' in meta.access;
}

function roleHolds(role: BuiltInRole, permission: string): boolean {
  const lowest = includedIn.get(permission);
  if (!lowest) throw new Error(`a declared permission the catalogue does not know: ${permission}`);
  return BUILT_IN_ROLES.indexOf(role) >= BUILT_IN_ROLES.indexOf(lowest);
}

/** The answer the declared access rule promises this caller on this target. */
function expectedFor(access: ProcedureMeta['access'], caller: Caller, target: Target): Expected {
  if (access === 'public') return { kind: 'allowed' };
  if (!caller.role || !caller.scope) return { kind: 'unauthenticated' };
  if (access === undefined) throw new Error('no access rule');
  if (access === 'authenticated') return { kind: 'allowed' };
  if ('permission' in access) {
    return caller.scope === 'GLOBAL' && roleHolds(caller.role, access.permission)
      ? { kind: 'allowed' }
      : { kind: 'forbidden', permission: access.permission };
  }
  const visible = target !== 'unknown' && (caller.scope === 'GLOBAL' || target === 'own');
  if (!visible) return { kind: 'cluster-not-found' };
  return roleHolds(caller.role, access.clusterPermission)
    ? { kind: 'allowed' }
    : { kind: 'forbidden', permission: access.clusterPermission };
}

/** Why an outcome breaks the expectation, or undefined when it keeps it. */
function mismatch(expected: Expected, outcome: Outcome): string | undefined {
  const problem = outcome.problem;
  const got = outcome.ok
    ? problem
      ? `past the gate (${String(problem.status)} ${problem.type})`
      : 'allowed'
    : `${String(problem?.status)} ${String(problem?.type)}${typeof problem?.permission === 'string' ? ` naming ${problem.permission}` : ''}`;
  switch (expected.kind) {
    case 'allowed':
      return outcome.ok ? undefined : `expected allowed, got ${got}`;
    case 'unauthenticated':
      return problem?.status === 401 && problem.type === 'unauthenticated'
        ? undefined
        : `expected 401 unauthenticated, got ${got}`;
    case 'forbidden':
      return problem?.status === 403 && problem.type === 'forbidden' && problem.permission === expected.permission
        ? undefined
        : `expected 403 forbidden naming ${expected.permission}, got ${got}`;
    case 'chain':
      return problem?.status === 403 && problem.type === expected.type
        ? undefined
        : `expected 403 ${expected.type}, got ${got}`;
    case 'refused':
      return !outcome.ok && (problem?.status === 401 || problem?.status === 403)
        ? undefined
        : `expected a 401 or 403 for every user, got ${got}`;
    case 'cluster-not-found': {
      return withoutRequestId(problem) === JSON.stringify(CLUSTER_NOT_FOUND)
        ? undefined
        : `expected exactly the cluster guard's 404, got ${got} ${JSON.stringify(problem)}`;
    }
  }
}

/** The problem as JSON without its request id, the one part two answers may differ in. */
function withoutRequestId(problem: Problem | undefined): string {
  if (!problem) return 'no problem';
  const copy: Record<string, unknown> = { ...problem };
  delete copy.requestId;
  return JSON.stringify(copy);
}

function outcomeOf(problem: Problem | undefined): Outcome {
  if (!problem) return { ok: true };
  return { ok: !DENIAL_TYPES.has(problem.type), problem };
}

/** The problem a tRPC call threw, as the edges would answer it. */
function problemOfError(error: unknown): Problem {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof ProblemError) return cause.problem;
  if (cause instanceof ZodError) return { type: 'validation-failed', title: 'Invalid input', status: 400 };
  if (error instanceof TRPCError) return { type: error.code.toLowerCase(), title: error.message, status: 0 };
  throw error;
}

const PASSWORD = `matrix-password-${randomUUID()}`;
let passwordHash: string;

async function createCaller(role: BuiltInRole, scope: ScopeKind): Promise<Caller> {
  const username = `${role}-${scope.toLowerCase()}`;
  const password = PASSWORD;
  const userId = randomUUID();
  const roleRow = await runtime.prisma.role.findUniqueOrThrow({ where: { name: role } });
  await runtime.prisma.user.create({
    data: { id: userId, username, providerId: 'local', passwordHash },
  });
  await runtime.prisma.grant.create({
    data: {
      id: randomUUID(),
      roleId: roleRow.id,
      principal: 'USER',
      userId,
      scopeKind: scope,
      scopeId: scope === 'ENVIRONMENT' ? environmentId : scope === 'CLUSTER' ? ids.own : null,
    },
  });
  const headers: AuthHeaders = await signIn(rest, 'http://127.0.0.1', { username, password });
  const token = await issueToken(rest, headers, 'matrix');
  return { name: `${role}@${scope}`, role, scope, headers, token };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ runtime, rest } = secured);
  includedIn = new Map(runtime.registry.permissionCatalogue().map((entry) => [entry.id, entry.includedIn]));
  await runtime.prisma.environment.create({ data: { id: environmentId, name: 'production' } });
  await insertClusterRow(runtime.prisma, { id: ids.own, name: 'orders', environmentId });
  await insertClusterRow(runtime.prisma, { id: ids.other, name: 'billing' });
  // Thousands of denials and dry runs on purpose: the flood bound (audit.flood-rows) is not what is tested here.
  const admin = await secured.signedIn();
  const raised = await admin.call('PUT', '/settings/audit.flood-rows', { value: 1_000_000 });
  if (raised.status !== 200) throw new Error(`audit.flood-rows: ${raised.status} ${JSON.stringify(raised.json)}`);
  passwordHash = await hashPassword(PASSWORD);
  callers.push({ name: 'anonymous', headers: {} });
  const made = await Promise.all(BUILT_IN_ROLES.flatMap((role) => SCOPES.map((scope) => createCaller(role, scope))));
  callers.push(...made);
}, 120_000);

afterAll(async () => {
  await secured.close();
});

/** Runs `work` over `items`, at most `limit` at a time. */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

/** Every target where the procedure names a cluster: by its rule, or by a `clusterId` in its input. */
function targetsOf(procedure: { meta: ProcedureMeta | undefined; takesClusterId?: boolean }): readonly Target[] {
  return isClusterScoped(procedure.meta) || procedure.takesClusterId ? TARGETS : ['own'];
}

/** The smallest input: the target cluster, and a dry run for a mutation (refused ones answer before the gate). */
function inputFor(type: string, target: Target): Record<string, unknown> {
  return { clusterId: ids[target], ...(type === 'mutation' ? { dryRun: true } : {}) };
}

/** The procedures of a router that declare no access rule or no module: the matrix could not derive their answer. */
function undeclaredProcedures(anyRouter: { _def: unknown }): string[] {
  return Object.entries((anyRouter._def as { procedures: Record<string, AnyProcedure> }).procedures)
    .filter(([, procedure]) => {
      const meta = (procedure._def as { meta?: ProcedureMeta }).meta;
      return meta?.access === undefined || meta.module === undefined;
    })
    .map(([procedurePath]) => procedurePath);
}

describe('the catalogue itself', () => {
  it('finds a procedure without an access rule (the check below can fail)', () => {
    const bare = initTRPC.meta<ProcedureMeta>().create();
    const declared = moduleProcedure('clusters')('authenticated').query(() => 'declared');
    const probe = router({ declared, undeclared: bare.procedure.query(() => 'undeclared') });
    expect(undeclaredProcedures(probe)).toEqual(['undeclared']);
  });

  it('declares an access rule and a module on every procedure, with permissions the catalogue knows', () => {
    expect(undeclaredProcedures(appRouter)).toEqual([]);
    const unknown = PROCEDURES.flatMap(({ path: procedurePath, meta }) => {
      const access = meta?.access;
      if (typeof access !== 'object') return [];
      const permission = 'permission' in access ? access.permission : access.clusterPermission;
      return includedIn.has(permission) ? [] : [`${procedurePath}: ${permission}`];
    });
    expect(unknown).toEqual([]);
    expect(PROCEDURES.filter((procedure) => procedure.type === 'subscription')).toEqual([]);
  });
});

describe('authorisation matrix over tRPC: every procedure × caller × target', () => {
  it('answers exactly what each declared access rule promises', async () => {
    const failures: string[] = [];
    const visited = new Set<string>();
    let cells = 0;
    const identity: Map<string, Partial<Record<Target, string>>> = new Map();
    await inBatches(callers, 3, async (caller) => {
      const context: TrpcContext = await createTrpcContext(
        runtime,
        new Request('http://127.0.0.1/api/trpc/matrix', { headers: caller.headers }),
      );
      const call = appRouter.createCaller(context) as unknown as Record<string, unknown>;
      for (const procedure of PROCEDURES) {
        let fn: unknown = call;
        for (const part of procedure.path.split('.')) fn = (fn as Record<string, unknown>)[part];
        for (const target of targetsOf(procedure)) {
          let problem: Problem | undefined;
          let result: unknown;
          try {
            result = await (fn as (input: unknown) => Promise<unknown>)(inputFor(procedure.type, target));
          } catch (error) {
            problem = problemOfError(error);
          }
          cells += 1;
          visited.add(procedure.path);
          const expected = expectedFor(procedure.meta?.access, caller, target);
          const wrong = mismatch(expected, outcomeOf(problem));
          if (wrong) failures.push(`${caller.name} ${procedure.path} → ${target}: ${wrong}`);
          // Where the caller cannot see the other cluster, it and none must answer alike — the guard's 404, or
          // whatever a procedure that takes a clusterId under another rule (a filter) answers, results included.
          if (target !== 'own' && caller.scope !== 'GLOBAL') {
            const key = `${caller.name} ${procedure.path}`;
            const answer = problem ? withoutRequestId(problem) : JSON.stringify(result ?? null);
            identity.set(key, { ...identity.get(key), [target]: answer });
          }
        }
      }
    });
    for (const [key, answers] of identity)
      if (answers.other !== undefined && answers.other !== answers.unknown)
        failures.push(`${key}: another cluster ${answers.other} ≠ none ${String(answers.unknown)}`);
    expect(failures).toEqual([]);
    expect(visited.size).toBe(PROCEDURES.length);
    console.info(`tRPC matrix: ${PROCEDURES.length} procedures, ${callers.length} callers, ${cells} cells`);
  }, 120_000);
});

const REST_ROUTES = PROCEDURES.flatMap((procedure) => {
  const openapi = procedure.meta?.openapi;
  return openapi ? [{ ...procedure, method: openapi.method, template: openapi.path }] : [];
});

/** A REST request for the route: path parameters filled (the cluster's with the target), a dry run for a change. */
function restRequest(route: (typeof REST_ROUTES)[number], caller: Caller, target: Target): Request {
  const clusterInPath = route.template.includes('{clusterId}');
  const filled = route.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'clusterId' ? ids[target] : 'x',
  );
  const url = new URL(`http://127.0.0.1/api/v1${filled}`);
  const mutating = route.method !== 'GET';
  if (mutating) url.searchParams.set('dryRun', 'true');
  const clusterElsewhere = isClusterScoped(route.meta) && !clusterInPath;
  if (clusterElsewhere && (route.method === 'GET' || route.method === 'DELETE'))
    url.searchParams.set('clusterId', ids[target]);
  const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  return new Request(url, {
    method: route.method,
    headers: { ...caller.headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    body: withBody ? JSON.stringify(clusterElsewhere ? { clusterId: ids[target] } : {}) : undefined,
  });
}

/** Everything a client can see of an answer but its request id: status, headers, body. */
async function answerWithoutRequestId(
  response: Response,
  clusterId?: string,
): Promise<{ problem?: Problem; seen: string; echoes: boolean }> {
  const text = await response.text();
  const headers = [...response.headers.entries()].filter(([name]) => name !== 'x-request-id').sort();
  let problem: Problem | undefined;
  let body = text;
  if (response.status >= 400 && response.headers.get('content-type')?.includes('json')) {
    problem = JSON.parse(text) as Problem;
    const requestId = problem.requestId;
    if (typeof requestId === 'string') body = text.replaceAll(requestId, '<request id>');
  } else if (response.status >= 400) {
    problem = { type: 'not-problem-json', title: text.slice(0, 200), status: response.status };
  }
  // Where the caller's own id comes back in a path (`instance` of a 404 that never looked at the cluster), it is the
  // caller's input, not the cluster's existence; the cluster guard's own 404 is checked not to echo it at all.
  const seen = JSON.stringify({ status: response.status, headers, body });
  return {
    problem,
    seen: clusterId ? seen.replaceAll(clusterId, '<cluster id>') : seen,
    echoes: clusterId !== undefined && seen.includes(clusterId),
  };
}

describe('REST envelope checks before the guard', () => {
  it('answer the same to anyone on any cluster: they look at the request alone', async () => {
    // The edge refuses a malformed envelope (the common flags' syntax, a body that is not JSON) before it knows who
    // may do what; that is only safe while the answer depends on nothing else. Every mutating route, bad flag.
    const viewer = callers.find((caller) => caller.name === 'viewer@CLUSTER') as Caller;
    const anonymous = callers.find((caller) => caller.name === 'anonymous') as Caller;
    const failures: string[] = [];
    for (const route of REST_ROUTES.filter((candidate) => candidate.method !== 'GET')) {
      const answers = new Set<string>();
      for (const caller of [anonymous, viewer]) {
        for (const target of TARGETS) {
          const built = restRequest(route, caller, target);
          const url = new URL(built.url);
          url.searchParams.set('dryRun', 'maybe');
          const answer = await answerWithoutRequestId(await rest(new Request(url, built)), ids[target]);
          answers.add(answer.seen);
          if (answer.problem?.type !== 'validation-failed')
            failures.push(`${caller.name} ${route.method} ${route.template} → ${target}: ${answer.seen}`);
        }
      }
      if (answers.size !== 1) failures.push(`${route.method} ${route.template}: ${[...answers].join(' ≠ ')}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

// Over REST and MCP every route and tool runs for six callers (all 13 double the file's time: about 40 s more on a
// busy two-core machine; AUTHORISATION_MATRIX_FULL=1 runs them all). The role × scope decision is the one access gate
// the tRPC matrix above runs for all 13; these six give every route every expected kind — anonymous (401), a global
// read-only role (allowed reads, forbidden writes), a cluster grant (its cluster only: the 404 for the others,
// forbidden global permissions), an environment grant, and the top tier everywhere.
const REST_CALLERS = process.env.AUTHORISATION_MATRIX_FULL
  ? ['anonymous', ...BUILT_IN_ROLES.flatMap((role) => SCOPES.map((scope) => `${role}@${scope}`))]
  : ['anonymous', 'viewer@GLOBAL', 'viewer@CLUSTER', 'operator@ENVIRONMENT', 'admin@CLUSTER', 'installer@GLOBAL'];

describe('authorisation matrix over tRPC: the filter chain before the permissions', () => {
  it('holds a user who must change their password to what the catalogue allows first, and a cookie change to its CSRF token', async () => {
    const admin = callers.find((caller) => caller.name === 'admin@GLOBAL') as Caller;
    const userId = randomUUID();
    await runtime.prisma.user.create({
      data: { id: userId, username: 'must-change', providerId: 'local', passwordHash, mustChangePassword: true },
    });
    const adminRole = await runtime.prisma.role.findUniqueOrThrow({ where: { name: 'admin' } });
    await runtime.prisma.grant.create({
      data: { id: randomUUID(), roleId: adminRole.id, principal: 'USER', userId, scopeKind: 'GLOBAL' },
    });
    const pending = await signIn(rest, 'http://127.0.0.1', { username: 'must-change', password: PASSWORD });
    const noCsrf = { cookie: admin.headers.cookie ?? '' };
    const failures: string[] = [];
    for (const [name, headers] of [
      ['must-change-password', pending],
      ['no-csrf-token', noCsrf],
    ] as const) {
      const context = await createTrpcContext(runtime, new Request('http://127.0.0.1/api/trpc/matrix', { headers }));
      const call = appRouter.createCaller(context) as unknown as Record<string, unknown>;
      for (const procedure of PROCEDURES) {
        let fn: unknown = call;
        for (const part of procedure.path.split('.')) fn = (fn as Record<string, unknown>)[part];
        let problem: Problem | undefined;
        try {
          await (fn as (input: unknown) => Promise<unknown>)(inputFor(procedure.type, 'own'));
        } catch (error) {
          problem = problemOfError(error);
        }
        const access = procedure.meta?.access;
        const asAdmin = expectedFor(access, admin, 'own');
        const expected: Expected =
          access === 'public'
            ? { kind: 'allowed' }
            : name === 'no-csrf-token'
              ? procedure.type === 'mutation'
                ? { kind: 'chain', type: 'csrf-token-missing' }
                : asAdmin
              : procedure.meta?.allowedBeforePasswordChange
                ? asAdmin
                : { kind: 'chain', type: 'password-change-required' };
        const wrong = mismatch(expected, outcomeOf(problem));
        if (wrong) failures.push(`${name} ${procedure.path}: ${wrong}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe('the REST routes', () => {
  it('are exactly the OpenAPI document’s operations, one per procedure with an OpenAPI path', () => {
    const document = buildOpenApiDocument(runtime.registry);
    const operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${template}`),
    );
    expect(operations.sort()).toEqual(REST_ROUTES.map((route) => `${route.method} ${route.template}`).sort());
  });
});

describe('authorisation matrix over REST: every route generated from a procedure × caller × target', () => {
  it('answers what the route’s procedure declares, and an unauthorised cluster exactly like none', async () => {
    const failures: string[] = [];
    const visited = new Set<string>();
    let cells = 0;
    const chosen = callers.filter((caller) => REST_CALLERS.includes(caller.name));
    expect(chosen).toHaveLength(REST_CALLERS.length);
    // And one caller by API token instead of the session cookie: a bearer principal meets the same rules.
    const byToken = callers.find((caller) => caller.name === 'admin@CLUSTER') as Caller;
    const restCallers = [
      ...chosen,
      { ...byToken, name: 'admin@CLUSTER (API token)', headers: { authorization: `Bearer ${byToken.token ?? ''}` } },
    ];
    await inBatches(restCallers, 3, async (caller) => {
      for (const route of REST_ROUTES) {
        const seen: Partial<Record<Target, string>> = {};
        for (const target of targetsOf(route)) {
          const answer = await answerWithoutRequestId(await rest(restRequest(route, caller, target)));
          cells += 1;
          visited.add(`${route.method} ${route.template}`);
          const expected = expectedFor(route.meta?.access, caller, target);
          const cell = `${caller.name} ${route.method} ${route.template} → ${target}`;
          const wrong = mismatch(expected, outcomeOf(answer.problem));
          if (wrong) failures.push(`${cell}: ${wrong}`);
          if (expected.kind === 'cluster-not-found') {
            seen[target] = answer.seen;
            if (answer.seen.includes(ids[target])) failures.push(`${cell}: the answer echoes the cluster id`);
          }
        }
        if (seen.other !== undefined && seen.other !== seen.unknown)
          failures.push(`${caller.name} ${route.method} ${route.template}: ${seen.other} ≠ ${String(seen.unknown)}`);
      }
    });
    expect(failures).toEqual([]);
    expect(visited.size).toBe(REST_ROUTES.length);
    console.info(`REST matrix: ${REST_ROUTES.length} routes, ${restCallers.length} callers, ${cells} cells`);
  }, 120_000);
});

// MCP tools call the procedures as the token's owner, so a tool's expected answer is its procedures' declared rules:
// every procedure a tool calls is recorded with what it answered, and must answer what its rule promises; the tool
// must then pass a denial on in the spec's shape (an unseen cluster said without the id or a permission, a missing
// permission named), identically for another cluster and none. Arguments are generated from each tool's listed
// schema; a discriminator's values are learnt from its refusal ("kind must be one of: …"), one variant per value.
interface ToolCall {
  readonly path: string;
  readonly input: unknown;
  readonly problem?: Problem;
}

interface ToolAnswer {
  readonly calls: readonly ToolCall[];
  /** The JSON-RPC answer as the agent reads it. */
  readonly text: string;
  readonly error?: { code: number; message: string };
  readonly result?: { isError?: boolean; content: { text: string }[] };
}

const PROCEDURE_META = new Map(PROCEDURES.map((procedure) => [procedure.path, procedure.meta]));

async function mcpContextFor(caller: Caller, calls: ToolCall[]) {
  const context = await createTrpcContext(
    runtime,
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${caller.token ?? ''}` },
    }),
  );
  const caller$ = appRouter.createCaller(context) as unknown as Record<string, unknown>;
  return {
    registry: runtime.registry,
    request: context.request,
    runtime,
    grants: context.grants,
    call: async (procedurePath: string, input?: unknown) => {
      let fn: unknown = caller$;
      for (const part of procedurePath.split('.')) fn = (fn as Record<string, unknown>)[part];
      try {
        const result = await (fn as (input: unknown) => Promise<unknown>)(input);
        calls.push({ path: procedurePath, input });
        return result;
      } catch (error) {
        calls.push({ path: procedurePath, input, problem: problemOfError(error) });
        throw error;
      }
    },
  };
}

async function mcp(caller: Caller, method: string, params?: unknown): Promise<ToolAnswer> {
  const calls: ToolCall[] = [];
  const response = await handleMcpRequest(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
    }),
    await mcpContextFor(caller, calls),
  );
  const text = await response.text();
  const json = JSON.parse(text) as Pick<ToolAnswer, 'error' | 'result'>;
  return { calls, text, ...json };
}

interface ListedSchema {
  readonly type?: string;
  readonly enum?: unknown[];
  readonly minimum?: number;
}

interface ListedTool {
  readonly name: string;
  readonly inputSchema: { properties?: Record<string, ListedSchema>; required?: string[] };
}

function dummy(name: string, schema: ListedSchema, clusterId: string): unknown {
  if (name === 'clusterId') return clusterId;
  if (name === 'dryRun') return true;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'number':
    case 'integer':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'object':
      return {};
    case 'array':
      return [];
    default:
      return 'x';
  }
}

/** Argument sets for a tool: its required arguments, then each discriminator value its refusals name. */
async function argumentVariants(caller: Caller, tool: ListedTool): Promise<Record<string, unknown>[]> {
  const properties = tool.inputSchema.properties ?? {};
  const base = (all: boolean) =>
    Object.fromEntries(
      Object.entries(properties)
        .filter(([name]) => name !== 'confirm' && name !== 'override')
        .filter(([name]) => all || name === 'clusterId' || (tool.inputSchema.required ?? []).includes(name))
        .map(([name, schema]) => [name, dummy(name, schema, ids.own)]),
    );
  const done: Record<string, unknown>[] = [];
  const queue: Record<string, unknown>[] = [base(false), base(true)];
  const seen = new Set<string>();
  const reachedBy = new Set<string>();
  while (queue.length > 0 && seen.size < 40) {
    const args = queue.shift() as Record<string, unknown>;
    const key = JSON.stringify(args);
    if (seen.has(key)) continue;
    seen.add(key);
    const answer = await mcp(caller, 'tools/call', { name: tool.name, arguments: args });
    const choice = /(\w+) must be one of: ([^.]+)\./.exec(answer.error?.message ?? '');
    if (choice?.[1] && choice[2]) {
      for (const value of choice[2].split(', ')) queue.push({ ...args, [choice[1]]: value });
    } else if (answer.calls.length > 0) {
      // One argument set for each distinct set of procedures reached.
      const reaches = [...new Set(answer.calls.map((call) => call.path))].sort().join();
      if (!reachedBy.has(reaches)) done.push(args);
      reachedBy.add(reaches);
    }
  }
  return done;
}

/** Tools that call no procedure, with why that is right. */
const TOOLS_REACHING_NO_PROCEDURE: Record<string, string> = {
  flotilla_help: 'a fixed guide to the tools and gates: it reads nothing of the installation',
};

describe('authorisation matrix over MCP: every tool × caller × target', () => {
  it('answers each tool call with its procedures’ declared rules, an unseen cluster alike for another and none', async () => {
    const installer = callers.find((caller) => caller.name === 'installer@GLOBAL') as Caller;
    const tools = (await mcp(installer, 'tools/list')).result as unknown as { tools: ListedTool[] };
    const variants = new Map<string, Record<string, unknown>[]>();
    for (const tool of tools.tools) variants.set(tool.name, await argumentVariants(installer, tool));
    const failures: string[] = [];
    let cells = 0;
    const reached = new Set<string>();
    await inBatches(
      callers.filter((caller) => caller.token && REST_CALLERS.includes(caller.name)),
      3,
      async (caller) => {
        for (const tool of tools.tools) {
          for (const args of variants.get(tool.name) ?? []) {
            const clusterScoped = 'clusterId' in args;
            const seen: Partial<Record<Target, string>> = {};
            for (const target of clusterScoped ? TARGETS : (['own'] as const)) {
              const answer = await mcp(caller, 'tools/call', {
                name: tool.name,
                arguments: clusterScoped ? { ...args, clusterId: ids[target] } : args,
              });
              cells += 1;
              const cell = `${caller.name} ${tool.name} ${JSON.stringify(args)} → ${target}`;
              let denial: Expected | undefined;
              for (const call of answer.calls) {
                reached.add(tool.name);
                const inputCluster = (call.input as { clusterId?: unknown } | undefined)?.clusterId;
                const callTarget = TARGETS.find((candidate) => ids[candidate] === inputCluster) ?? 'own';
                const expected = expectedFor(PROCEDURE_META.get(call.path)?.access, caller, callTarget);
                const wrong = mismatch(expected, outcomeOf(call.problem));
                if (wrong) failures.push(`${cell}: ${call.path}: ${wrong}`);
                if (expected.kind !== 'allowed') denial ??= expected;
              }
              if (denial?.kind === 'cluster-not-found') {
                seen[target] = answer.text;
                if (!answer.result?.isError || answer.text.includes(ids[target]) || /permission/i.test(answer.text))
                  failures.push(`${cell}: expected an isError result without the id or a permission: ${answer.text}`);
              } else if (denial?.kind === 'forbidden') {
                if (!answer.result?.isError || !answer.text.includes(`Permission missing: ${denial.permission}`))
                  failures.push(`${cell}: expected the missing ${denial.permission} named: ${answer.text}`);
              }
            }
            if (seen.other !== undefined && seen.other !== seen.unknown)
              failures.push(`${caller.name} ${tool.name}: ${seen.other} ≠ ${String(seen.unknown)}`);
          }
        }
      },
    );
    expect(failures).toEqual([]);
    // Every tool of the catalogue is listed (every module is on here), and each one reaches a procedure, but those
    // that read nothing of anyone's.
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
    expect(tools.tools.map((tool) => tool.name).filter((name) => !reached.has(name))).toEqual(
      Object.keys(TOOLS_REACHING_NO_PROCEDURE),
    );
    console.info(
      `MCP matrix: ${tools.tools.length} tools, ${[...variants.values()].flat().length} argument sets, ${cells} cells; ` +
        `no procedure reached: ${tools.tools
          .map((tool) => tool.name)
          .filter((name) => !reached.has(name))
          .join(', ')}`,
    );
  }, 120_000);
});

// The route files outside the procedures (src/app/**/route.ts), found on the file system. Each must be classified
// here with its rule and how to call it, so a new route file fails this test until someone says who may call it;
// every exported method is called. `procedures` routes are the REST and tRPC edges of the matrices above.
type RouteRule =
  | { readonly kind: 'procedures' }
  | { readonly kind: 'public' }
  | { readonly kind: 'signed-in' }
  | { readonly kind: 'api-token' }
  /** Its own credential (a scrape token or an allowlisted address), never a user's: every user caller is refused. */
  | { readonly kind: 'scrape-token' }
  | { readonly kind: 'cluster'; readonly permission: string };

interface RouteFile {
  readonly rule: RouteRule;
  /** Calls the route for a caller (its exported handler, bound to this test's runtime) on a target cluster. */
  readonly call?: (method: string, caller: Caller, clusterId: string) => Promise<Response>;
  /** Why it is not called here, where it is not. */
  readonly note?: string;
}

const APP_DIR = path.resolve(import.meta.dirname, '../../src/app');
const getRuntime = () => Promise.resolve(runtime);
const request = (url: string, method: string, caller: Caller, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1${url}`, {
    method,
    headers: { ...caller.headers, ...headers },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
  });

const ROUTE_FILES: Record<string, RouteFile> = {
  'api/v1/[...path]': { rule: { kind: 'procedures' }, note: 'the REST matrix above' },
  'api/trpc/[trpc]': {
    rule: { kind: 'procedures' },
    // Over HTTP, one cluster-scoped query: the matrix above runs every procedure through the same router and gate.
    call: (method, caller, clusterId) =>
      createTrpcHandler(getRuntime)(
        request(
          `/api/trpc/clusters.get?input=${encodeURIComponent(JSON.stringify({ clusterId }))}`,
          method === 'POST' ? 'GET' : method,
          caller,
        ),
      ),
  },
  'api/v1/stream': {
    // Any permission on the cluster makes it visible; every built-in role holds cluster:read.
    rule: { kind: 'cluster', permission: 'cluster:read' },
    call: (method, caller, clusterId) =>
      createStreamHandler(getRuntime)(request(`/api/v1/stream?clusterId=${clusterId}&topics=queues`, method, caller)),
  },
  'api/v1/clusters/[clusterId]/sql/tail': {
    rule: { kind: 'cluster', permission: 'sql:query' },
    call: (method, caller, clusterId) =>
      createTailHandler(getRuntime, createTrpcContext)(
        request(`/api/v1/clusters/${clusterId}/sql/tail`, method, caller),
        { params: Promise.resolve({ clusterId }) },
      ),
  },
  'api/v1/clusters/[clusterId]/p/[...path]': {
    // No plugin is installed here, so every signed-in caller hears "no plugin route" before any cluster is looked
    // at; the gateway's cluster guard with a running plugin: src/modules/feature/plugins/server/plugins.int.test.ts.
    rule: { kind: 'signed-in' },
    call: (method, caller, clusterId) =>
      guardedRoute(
        handlePluginGateway,
        getRuntime,
      )(request(`/api/v1/clusters/${clusterId}/p/matrix-plugin/x`, method, caller)),
  },
  'api/v1/p/[...path]': {
    rule: { kind: 'signed-in' },
    call: (method, caller) =>
      guardedRoute(handlePluginGateway, getRuntime)(request('/api/v1/p/matrix-plugin/x', method, caller)),
  },
  'api/v1/plugin-ui/[id]/[version]/ui.js': {
    rule: { kind: 'signed-in' },
    call: (method, caller) =>
      guardedRoute(serveUiBundle, getRuntime)(request('/api/v1/plugin-ui/matrix-plugin/1.0.0/ui.js', method, caller)),
  },
  'api/v1/auth/oidc/[...step]': {
    rule: { kind: 'public' },
    note: 'next-auth does not load under vitest (it imports next/server); test/browser/oidc-sign-in.browser.test.ts signs in through it on the started app',
  },
  'api/[...path]': {
    rule: { kind: 'public' },
    call: async (method, caller) => {
      const route = (await import('../../src/app/api/[...path]/route.ts')) as unknown as Record<
        string,
        (r: Request) => Response
      >;
      return (route[method] as (r: Request) => Response)(request('/api/elsewhere', method, caller));
    },
  },
  mcp: {
    rule: { kind: 'api-token' },
    call: (method, caller) =>
      createMcpHandler(getRuntime)(
        new Request('http://127.0.0.1/mcp', {
          method,
          headers: {
            ...(caller.token ? { authorization: `Bearer ${caller.token}` } : caller.headers),
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) } : {}),
        }),
      ),
  },
  'actuator/health/flotilla': {
    rule: { kind: 'public' },
    call: (method, caller) => healthResponse(runtime, request('/actuator/health/flotilla', method, caller)),
  },
  metrics: {
    // No scrape token is set and an in-process request has no address, so no one is admitted: users' sessions and
    // API tokens open nothing here (src/modules/platform/telemetry has the scrape token's own tests).
    rule: { kind: 'scrape-token' },
    call: (method, caller) =>
      createMetricsHandler(getRuntime)(
        request('/metrics', method, caller, caller.token ? { authorization: `Bearer ${caller.token}` } : {}),
      ),
  },
  'actuator/health/liveness': { rule: { kind: 'public' }, call: () => Promise.resolve(liveness()) },
  'actuator/health/readiness': {
    rule: { kind: 'public' },
    note: 'reads the process’s own runtime (getWebRuntime), never the caller; e2e tests call it on the started app',
  },
};

function withoutTrpcError(problem: Problem | undefined): Problem | undefined {
  if (!problem) return undefined;
  return Object.fromEntries(Object.entries(problem).filter(([key]) => key !== 'error')) as Problem;
}

function routeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === 'route.ts' ? [path.relative(APP_DIR, directory).split(path.sep).join('/')] : [];
  });
}

function routeExpected(rule: RouteRule, method: string, caller: Caller, target: Target): Expected {
  switch (rule.kind) {
    case 'procedures':
      return expectedFor(PROCEDURE_META.get('clusters.get')?.access, caller, target);
    case 'public':
      return { kind: 'allowed' };
    case 'signed-in':
      return expectedFor('authenticated', caller, target);
    case 'api-token':
      // Only a bearer token is heard (a session cookie is no credential here); the GET and DELETE are 405 to all.
      return method !== 'POST' || caller.token ? { kind: 'allowed' } : { kind: 'unauthenticated' };
    case 'scrape-token':
      return { kind: 'refused' };
    case 'cluster':
      return expectedFor({ clusterPermission: rule.permission }, caller, target);
  }
}

describe('authorisation matrix over the route files outside the procedures', () => {
  it('classifies every route file and method, and each answers what its rule promises', async () => {
    // And a signed-in session without its API token: /mcp hears tokens only.
    const admin = callers.find((caller) => caller.name === 'admin@GLOBAL') as Caller;
    const routeCallers = [...callers, { ...admin, name: 'admin@GLOBAL (cookie, no token)', token: undefined }];
    const found = routeFiles(APP_DIR).sort();
    expect(found).toEqual(Object.keys(ROUTE_FILES).sort());
    const failures: string[] = [];
    let cells = 0;
    for (const directory of found) {
      const file = ROUTE_FILES[directory] as RouteFile;
      // The methods the file exports (`export { handle as GET }`, `export const GET`), read from its text: importing
      // it would load next-auth for one of them.
      const source = readFileSync(path.join(APP_DIR, directory, 'route.ts'), 'utf8');
      const exportLines = source.split('\n').filter((line) => line.startsWith('export'));
      const methods = [
        ...new Set(exportLines.flatMap((line) => line.match(/\b(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g) ?? [])),
      ];
      expect(methods.length, directory).toBeGreaterThan(0);
      const call = file.call;
      if (!call) {
        expect(file.note, `${directory} is neither called nor explained`).toBeTruthy();
        continue;
      }
      for (const method of methods) {
        for (const caller of routeCallers) {
          const clusterRoute =
            file.rule.kind === 'cluster' || directory.includes('[clusterId]') || directory.includes('trpc');
          const seen: Partial<Record<Target, string>> = {};
          for (const target of clusterRoute ? TARGETS : (['own'] as const)) {
            const response = await call(method, caller, ids[target]);
            const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
            if (isStream) await response.body?.cancel();
            const answer = isStream
              ? { seen: 'stream', echoes: false }
              : await answerWithoutRequestId(response, ids[target]);
            cells += 1;
            const cell = `${caller.name} ${method} ${directory} → ${target}`;
            // The tRPC edge answers the problem with tRPC's own `error` member beside it (trpc-route.ts).
            const problem = 'problem' in answer ? withoutTrpcError(answer.problem) : undefined;
            const expected = routeExpected(file.rule, method, caller, target);
            const wrong = mismatch(expected, outcomeOf(problem));
            if (wrong) failures.push(`${cell}: ${wrong}`);
            if (expected.kind === 'cluster-not-found') seen[target] = answer.seen;
            if (expected.kind === 'cluster-not-found' && answer.echoes)
              failures.push(`${cell}: the answer echoes the cluster id`);
          }
          if (seen.other !== undefined && seen.other !== seen.unknown)
            failures.push(`${caller.name} ${method} ${directory}: ${seen.other} ≠ ${String(seen.unknown)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    console.info(`route files: ${found.length}, ${cells} cells`);
  }, 60_000);
});

describe('authorisation matrix over MCP resources: every resource and cluster template × caller × target', () => {
  it('reads each through procedures answering their declared rules, an unseen cluster alike for another and none', async () => {
    const installer = callers.find((caller) => caller.name === 'installer@GLOBAL') as Caller;
    const fixed = ((await mcp(installer, 'resources/list')).result as unknown as { resources: { uri: string }[] })
      .resources;
    const templates = (
      (await mcp(installer, 'resources/templates/list')).result as unknown as {
        resourceTemplates: { uriTemplate: string }[];
      }
    ).resourceTemplates;
    expect(templates.length).toBeGreaterThan(0);
    const failures: string[] = [];
    let cells = 0;
    const uris = [
      ...fixed.map((resource) => ({ uri: () => resource.uri, clusterScoped: false })),
      ...templates.map((template) => ({
        uri: (clusterId: string) => template.uriTemplate.replace('{id}', clusterId),
        clusterScoped: true,
      })),
    ];
    await inBatches(
      callers.filter((caller) => caller.token),
      3,
      async (caller) => {
        for (const resource of uris) {
          const seen: Partial<Record<Target, string>> = {};
          for (const target of resource.clusterScoped ? TARGETS : (['own'] as const)) {
            const answer = await mcp(caller, 'resources/read', { uri: resource.uri(ids[target]) });
            cells += 1;
            const cell = `${caller.name} ${resource.uri('{id}')} → ${target}`;
            if (answer.calls.length === 0) failures.push(`${cell}: reached no procedure: ${answer.text}`);
            let denial: Expected | undefined;
            for (const call of answer.calls) {
              const expected = expectedFor(PROCEDURE_META.get(call.path)?.access, caller, target);
              const wrong = mismatch(expected, outcomeOf(call.problem));
              if (wrong) failures.push(`${cell}: ${call.path}: ${wrong}`);
              if (expected.kind !== 'allowed') denial ??= expected;
            }
            if (denial?.kind === 'cluster-not-found') {
              seen[target] = answer.text;
              if (answer.text.includes(ids[target]) || /permission/i.test(answer.text))
                failures.push(`${cell}: the refusal names the id or a permission: ${answer.text}`);
            }
          }
          if (seen.other !== undefined && seen.other !== seen.unknown)
            failures.push(`${caller.name} ${resource.uri('{id}')}: ${seen.other} ≠ ${String(seen.unknown)}`);
        }
      },
    );
    expect(failures).toEqual([]);
    console.info(`MCP resources: ${fixed.length} resources, ${templates.length} templates, ${cells} cells`);
  }, 60_000);
});
