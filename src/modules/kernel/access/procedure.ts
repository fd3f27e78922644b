// The procedure kit: the one tRPC instance. Every procedure is built with `moduleProcedure(moduleId)(access)`: it
// names its module (a disabled module's procedures answer `feature-disabled`) and its access rule (public, any
// signed-in user, or a permission), enforced here and checked present on every procedure by a test. The context is
// typed by `ProcedureRuntime` (procedure-context.ts), not by the web process's runtime, so the kit depends on no
// module above it.
import { isDatabaseBusy, isDatabaseFull } from '@/base/db/database-busy.ts';
import { decodeSegment } from '@/base/path-segment.ts';
import type { TRPCError } from '@trpc/server';
import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import {
  databaseBusyProblem,
  storageFullProblem,
  featureDisabledProblem,
  internalErrorProblem,
  malformedRequestProblem,
  NO_ROUTE,
  notFoundProblem,
  type Problem,
  ProblemError,
  type RequestContext,
  validationProblem,
} from '@/modules/kernel/core/index.ts';
import { checkAccess, type Access } from './access.ts';
import { guardCluster, requireClusterPermission } from './cluster-guard.ts';
import type { DeniedCluster } from './denial-log-contract.ts';
import { recordDenial, refuseAuditFlood } from './denial-log.ts';
import type { EffectiveGrant } from './grants.ts';
import type { Principal } from './principal.ts';
import type { ProcedureRuntime } from './procedure-context.ts';

export type ProcedureMeta = OpenApiMeta & {
  module?: string;
  access?: Access;
  /** Callable while the user's password must be changed: who am I, change password, sign out. */
  allowedBeforePasswordChange?: boolean;
  /**
   * A mutation either honours `dryRun` (its input has the field: validate everything, say what would happen, change
   * nothing, audit as a dry run) or, where a dry run means nothing (signing in or out), says `'refused'` here and a
   * dry run is answered 400 `dry-run-not-supported`. test/architecture/procedures.test.ts holds every mutation to one.
   */
  dryRun?: 'refused';
};

export interface TrpcContext {
  readonly runtime: ProcedureRuntime;
  readonly request: RequestContext;
  /** The incoming request's headers and transport, for the few procedures that deal in cookies; `rest` when it came
   *  through the REST edge, whose path parameters arrive percent-encoded. */
  readonly http: { readonly headers: Headers; readonly secure: boolean; readonly rest?: boolean };
  /** Headers to add to the response (Set-Cookie), merged by both edges. */
  readonly responseHeaders: Headers;
  /** Who is calling, from a bearer token or the session cookie; undefined when anonymous. */
  readonly principal: Principal | undefined;
  /** Set when the caller may not be heard at all (an address guessing bearer tokens): every call answers it. */
  readonly refusal?: Problem;
  /** The caller's grants with their roles' permissions (loaded once per request, on first use). */
  readonly grants: () => Promise<readonly EffectiveGrant[]>;
  /** The permissions the caller holds everywhere. */
  readonly globalPermissions: () => Promise<ReadonlySet<string>>;
}

const STATUS_BY_CODE: Partial<Record<TRPCError['code'], number>> = {
  PARSE_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
};

/** Turns whatever a procedure threw into the problem the client sees; unexpected errors reveal nothing. */
export function problemFromError(error: TRPCError, requestId: string): Problem {
  const cause = error.cause;
  if (cause instanceof ProblemError) return { ...cause.problem, requestId };
  if (cause instanceof ZodError) {
    const errors = cause.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
    return { ...validationProblem(errors), requestId };
  }
  // A full pool or a database restart is the moment's, not the request's or the code's: 503, try again.
  if (isDatabaseBusy(cause)) return databaseBusyProblem(requestId);
  // A full disk refuses writes until an operator frees space: also not the request's fault, and it must not leak
  // the server's message (it names the data folder's files).
  if (isDatabaseFull(cause)) return storageFullProblem(requestId);
  if (error.code === 'NOT_FOUND') return { ...notFoundProblem(NO_ROUTE), requestId };
  if (error.code === 'PARSE_ERROR') return { ...malformedRequestProblem(), requestId };
  const status = STATUS_BY_CODE[error.code];
  if (status === undefined) return internalErrorProblem(requestId);
  // The title is the type's, never the message: tRPC's own messages quote the input (the start of one that is no
  // JSON), and a title is ours, not governed on its way out (governed-problem.ts).
  const words = error.code.toLowerCase().replace(/_/g, ' ');
  return {
    type: error.code.toLowerCase().replace(/_/g, '-'),
    title: `${words.charAt(0).toUpperCase()}${words.slice(1)}`,
    status,
    detail: error.message,
    requestId,
  };
}

/** tRPC's code for an HTTP status (as its own HTTP_CODE_TO_JSONRPC2, which it does not export). */
const CODE_BY_STATUS = new Map<number, TRPCError['code']>([
  ...Object.entries(STATUS_BY_CODE)
    .filter(([code]) => code !== 'PARSE_ERROR')
    .map(([code, status]) => [status, code as TRPCError['code']] as const),
  [502, 'BAD_GATEWAY'],
  [503, 'SERVICE_UNAVAILABLE'],
  [504, 'GATEWAY_TIMEOUT'],
]);

/**
 * The tRPC code an answer of this HTTP status carries beside its problem: tRPC's error format says `code` and
 * `data.code` of the status in `data.httpStatus`. The error's own code when it already says that status (a
 * PARSE_ERROR's 400 among them).
 */
export function trpcCodeOf(status: number, own?: TRPCError['code']): TRPCError['code'] {
  if (own && STATUS_BY_CODE[own] === status) return own;
  return CODE_BY_STATUS.get(status) ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const problem = problemFromError(error, ctx?.request.requestId ?? 'unknown');
      // A problem thrown in a middleware or a procedure reaches here as tRPC's INTERNAL_SERVER_ERROR whatever its
      // status: the code follows the problem's status (a 404 said INTERNAL_SERVER_ERROR, found by fuzz-trpc).
      const code = trpcCodeOf(problem.status, shape.data.code);
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[code],
        message: problem.detail ?? problem.title,
        data: { code, httpStatus: problem.status, problem },
      };
    },
  });

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/** The `{name}` parameters of an OpenAPI path template, e.g. `['clusterId', 'queueName']`. */
function pathParameterNames(template: string | undefined): string[] {
  return [...(template ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

// REST path parameters reach the procedure as the URL spells them (`orders%2Feu`); decoded here, once, every
// procedure sees the same value over REST as over tRPC.
const decodePathParameters = t.middleware(async ({ meta, ctx, getRawInput, next }) => {
  const names = ctx.http.rest ? pathParameterNames(meta?.openapi?.path) : [];
  if (names.length === 0) return next();
  const raw = await getRawInput();
  if (typeof raw !== 'object' || raw === null) return next();
  const decoded: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const name of names) {
    const value = decoded[name];
    if (typeof value === 'string') decoded[name] = decodeSegment(value);
  }
  return next({ getRawInput: () => Promise.resolve(decoded) });
});

const featureGate = t.middleware(({ meta, ctx, next }) => {
  const moduleId = meta?.module;
  const entry = moduleId ? ctx.runtime.registry.get(moduleId) : undefined;
  if (!entry) throw new Error(`Procedure without a known module in its meta: ${String(moduleId)}`);
  if (!entry.enabled) throw new ProblemError(featureDisabledProblem(entry));
  return next();
});

/** The call's access rule and, for a cluster-scoped procedure, the guard; answers the cluster it passed. */
async function checkCall(
  ctx: TrpcContext,
  meta: ProcedureMeta | undefined,
  isMutation: boolean,
  getRawInput: () => Promise<unknown>,
): Promise<DeniedCluster | undefined> {
  if (ctx.refusal) throw new ProblemError(ctx.refusal);
  const access = meta?.access ?? { permission: 'undeclared' };
  await checkAccess({
    access,
    isMutation,
    principal: ctx.principal,
    headers: ctx.http.headers,
    allowedBeforePasswordChange: meta?.allowedBeforePasswordChange ?? false,
    globalPermissions: ctx.globalPermissions,
  });
  let cluster: DeniedCluster | undefined;
  if (typeof access === 'object' && 'clusterPermission' in access) {
    const raw = await getRawInput();
    const guarded = await guardCluster({
      registry: ctx.runtime.registry,
      prisma: ctx.runtime.prisma,
      grants: ctx.grants,
      clusterId: typeof raw === 'object' && raw !== null ? (raw as { clusterId?: unknown }).clusterId : undefined,
    });
    cluster = guarded.cluster;
    requireClusterPermission(guarded, access.clusterPermission);
  }
  // A flooding caller may still sign out and change their password; every other change waits for the window.
  if (isMutation && access !== 'public' && !meta?.allowedBeforePasswordChange) await refuseAuditFlood(ctx);
  return cluster;
}

// Runs after the feature gate, so a disabled feature answers `feature-disabled` to everyone alike. Every denial,
// by the checks here or by the procedure itself (a 409, a CSRF check of its own), goes to the denial audit.
const accessGate = t.middleware(async ({ meta, ctx, type, path, getRawInput, next }) => {
  let cluster: DeniedCluster | undefined;
  try {
    cluster = await checkCall(ctx, meta, type === 'mutation', getRawInput);
  } catch (error) {
    await recordDenial(ctx, path, error);
    throw error;
  }
  const result = await next();
  if (!result.ok) await recordDenial(ctx, path, result.error.cause, cluster);
  return result;
});

// Runs after the access gate (a guard answers first: a caller without access hears only the denial) and before
// anything else a refused dry run could start (the sign-in throttle, an audit row).
const dryRunGate = t.middleware(async ({ meta, getRawInput, next }) => {
  if (meta?.dryRun !== 'refused') return next();
  const raw = await getRawInput();
  if (typeof raw === 'object' && raw !== null && (raw as { dryRun?: unknown }).dryRun === true) {
    throw new ProblemError({
      type: 'dry-run-not-supported',
      title: 'No dry run here',
      status: 400,
      detail: 'This operation has no dry run (there is nothing to preview): send it without dryRun.',
    });
  }
  return next();
});

/** `moduleProcedure('settings')({ permission: 'settings:read' })` starts every procedure of a module. */
export function moduleProcedure(moduleId: string) {
  return (access: Access) =>
    t.procedure
      .meta({ module: moduleId, access })
      .use(decodePathParameters)
      .use(featureGate)
      .use(accessGate)
      .use(dryRunGate);
}
