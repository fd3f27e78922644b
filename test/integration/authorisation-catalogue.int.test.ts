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
import type { AnyProcedure } from '@trpc/server';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { appRouter } from '../../src/installation/app-router.ts';
import { CLUSTER_NOT_FOUND, type ProcedureMeta, type TrpcContext } from '../../src/modules/kernel/access/index.ts';
import { type Problem, ProblemError } from '../../src/modules/kernel/core/index.ts';
import { BUILT_IN_ROLES, type BuiltInRole } from '../../src/modules/kernel/plugin/descriptor.ts';
import { hashPassword } from '../../src/modules/kernel/security/server/passwords.ts';
import { createTrpcContext } from '../../src/server/http/context.ts';
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
  | { readonly kind: 'cluster-not-found' };

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

async function createCaller(role: BuiltInRole, scope: ScopeKind): Promise<Caller> {
  const username = `${role}-${scope.toLowerCase()}`;
  const password = `matrix-password-${randomUUID()}`;
  const userId = randomUUID();
  const roleRow = await runtime.prisma.role.findUniqueOrThrow({ where: { name: role } });
  await runtime.prisma.user.create({
    data: { id: userId, username, providerId: 'local', passwordHash: await hashPassword(password) },
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
  callers.push({ name: 'anonymous', headers: {} });
  for (const role of BUILT_IN_ROLES) for (const scope of SCOPES) callers.push(await createCaller(role, scope));
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

function targetsOf(meta: ProcedureMeta | undefined): readonly Target[] {
  return isClusterScoped(meta) ? TARGETS : ['own'];
}

/** The smallest input: the target cluster, and a dry run for a mutation (refused ones answer before the gate). */
function inputFor(type: string, meta: ProcedureMeta | undefined, target: Target): Record<string, unknown> {
  return { clusterId: ids[target], ...(type === 'mutation' ? { dryRun: true } : {}) };
}

describe('the catalogue itself', () => {
  it('declares an access rule and a module on every procedure, with permissions the catalogue knows', () => {
    const undeclared = PROCEDURES.filter(({ meta }) => meta?.access === undefined || meta.module === undefined);
    expect(undeclared.map((procedure) => procedure.path)).toEqual([]);
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
        for (const target of targetsOf(procedure.meta)) {
          let problem: Problem | undefined;
          try {
            await (fn as (input: unknown) => Promise<unknown>)(inputFor(procedure.type, procedure.meta, target));
          } catch (error) {
            problem = problemOfError(error);
          }
          cells += 1;
          visited.add(procedure.path);
          const expected = expectedFor(procedure.meta?.access, caller, target);
          const wrong = mismatch(expected, outcomeOf(problem));
          if (wrong) failures.push(`${caller.name} ${procedure.path} → ${target}: ${wrong}`);
          if (target !== 'own' && expected.kind === 'cluster-not-found') {
            const key = `${caller.name} ${procedure.path}`;
            identity.set(key, { ...identity.get(key), [target]: withoutRequestId(problem) });
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
