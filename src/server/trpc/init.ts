// The one tRPC instance. Every procedure is built with `moduleProcedure(moduleId)(access)`: it names its module
// (a disabled module's procedures answer `feature-disabled`) and its access rule (public, any signed-in user, or
// a permission), which the security kernel enforces and a test checks is present on every procedure.
import type { TRPCError } from '@trpc/server';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import {
  internalErrorProblem,
  NO_ROUTE,
  notFoundProblem,
  ProblemError,
  validationProblem,
  type Problem,
} from '@/modules/kernel/core/problem.ts';
import type { RequestContext } from '@/modules/kernel/core/request-context.ts';
import { checkAccess, type Access } from '@/modules/kernel/security/server/access.ts';
import { guardCluster, requireClusterPermission } from '@/modules/kernel/security/server/cluster-guard.ts';
import type { EffectiveGrant } from '@/modules/kernel/security/server/grants.ts';
import type { Principal } from '@/modules/kernel/security/server/principal.ts';

export type { Access };
import { featureDisabledProblem } from '@/modules/kernel/plugin/feature-gate.ts';
import type { WebRuntime } from '../runtime/web-runtime.ts';

export type ProcedureMeta = OpenApiMeta & {
  module?: string;
  access?: Access;
  /** Callable while the user's password must be changed: who am I, change password, sign out. */
  allowedBeforePasswordChange?: boolean;
};

export interface TrpcContext {
  readonly runtime: WebRuntime;
  readonly request: RequestContext;
  /** The incoming request's headers and transport, for the few procedures that deal in cookies; `rest` when it came
   *  through the REST edge, whose path parameters arrive percent-encoded. */
  readonly http: { readonly headers: Headers; readonly secure: boolean; readonly rest?: boolean };
  /** Headers to add to the response (Set-Cookie), merged by both edges. */
  readonly responseHeaders: Headers;
  /** Who is calling, from a bearer token or the session cookie; undefined when anonymous. */
  readonly principal: Principal | undefined;
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
  if (error.code === 'NOT_FOUND') return { ...notFoundProblem(NO_ROUTE), requestId };
  if (error.code === 'PARSE_ERROR') {
    return {
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'The request body is not valid JSON.',
      requestId,
    };
  }
  const status = STATUS_BY_CODE[error.code];
  if (status === undefined) return internalErrorProblem(requestId);
  return {
    type: error.code.toLowerCase().replace(/_/g, '-'),
    title: error.message,
    status,
    detail: error.message,
    requestId,
  };
}

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const problem = problemFromError(error, ctx?.request.requestId ?? 'unknown');
      return {
        ...shape,
        message: problem.detail ?? problem.title,
        data: { code: shape.data.code, httpStatus: problem.status, problem },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** The `{name}` parameters of an OpenAPI path template, e.g. `['clusterId', 'queueName']`. */
export function pathParameterNames(template: string | undefined): string[] {
  return [...(template ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

const decodeSegment = (value: unknown) => {
  if (typeof value !== 'string') return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not valid percent-encoding: taken as written
  }
};

// REST path parameters reach the procedure as the URL spells them (`orders%2Feu`); decoded here, once, every
// procedure sees the same value over REST as over tRPC.
const decodePathParameters = t.middleware(async ({ meta, ctx, getRawInput, next }) => {
  const names = ctx.http.rest ? pathParameterNames(meta?.openapi?.path) : [];
  if (names.length === 0) return next();
  const raw = await getRawInput();
  if (typeof raw !== 'object' || raw === null) return next();
  const decoded: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const name of names) decoded[name] = decodeSegment(decoded[name]);
  return next({ getRawInput: () => Promise.resolve(decoded) });
});

const featureGate = t.middleware(({ meta, ctx, next }) => {
  const moduleId = meta?.module;
  const entry = moduleId ? ctx.runtime.registry.get(moduleId) : undefined;
  if (!entry) throw new Error(`Procedure without a known module in its meta: ${String(moduleId)}`);
  if (!entry.enabled) throw new ProblemError(featureDisabledProblem(entry));
  return next();
});

// Runs after the feature gate, so a disabled feature answers `feature-disabled` to everyone alike.
const accessGate = t.middleware(async ({ meta, ctx, type, getRawInput, next }) => {
  const access = meta?.access ?? { permission: 'undeclared' };
  await checkAccess({
    access,
    isMutation: type === 'mutation',
    principal: ctx.principal,
    csrfHeader: ctx.http.headers.get('x-csrf-token'),
    allowedBeforePasswordChange: meta?.allowedBeforePasswordChange ?? false,
    globalPermissions: ctx.globalPermissions,
  });
  if (typeof access === 'object' && 'clusterPermission' in access) {
    const raw = await getRawInput();
    const { permissions } = await guardCluster({
      registry: ctx.runtime.registry,
      prisma: ctx.runtime.prisma,
      grants: ctx.grants,
      clusterId: typeof raw === 'object' && raw !== null ? (raw as { clusterId?: unknown }).clusterId : undefined,
    });
    requireClusterPermission(permissions, access.clusterPermission);
  }
  return next();
});

/** `moduleProcedure('settings')({ permission: 'settings:read' })` starts every procedure of a module. */
export function moduleProcedure(moduleId: string) {
  return (access: Access) =>
    t.procedure.meta({ module: moduleId, access }).use(decodePathParameters).use(featureGate).use(accessGate);
}
