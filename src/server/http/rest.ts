// Every /api/v1 REST request passes here: feature gate by path prefix, the OpenAPI document, the common
// mutation parameters, the procedures (through trpc-to-openapi) and, on any failure, RFC 9457 problem+json.
import { CLUSTER_NOT_FOUND, type TrpcContext } from '@/modules/kernel/access/index.ts';
import {
  createRequestContext,
  featureDisabledProblem,
  internalErrorProblem,
  malformedRequestProblem,
  NO_ROUTE,
  notFoundProblem,
  type Problem,
  ProblemError,
  problemResponse,
  type RequestContext,
  serviceUnavailableProblem,
  validationProblem,
} from '@/modules/kernel/core/index.ts';
import { logger, withLogContext } from '@/base/log/log.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { appRouter } from '@/installation/app-router.ts';
import { createTrpcContext } from './context.ts';
import { governedProblemResponse } from './governed-problem.ts';
import { openApiDocumentFor } from './openapi.ts';
import { callProcedures } from './openapi-handler.ts';
import { queryInput } from './query-input.ts';
import { bodyLimit, checkUrl, guardBody } from './request-guard.ts';
import { strictBooleanInputs } from './strict-booleans.ts';

const API_BASE = '/api/v1';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const COMMON_FLAGS = ['dryRun', 'override'] as const;
type Flag = (typeof COMMON_FLAGS)[number];
type Refusal = { problem: Problem };

strictBooleanInputs(appRouter);
const log = logger('rest');

/** Next.js calls route handlers with a second argument, so the runtime source is bound here, not passed. */
export function createRestHandler(getRuntime: () => Promise<WebRuntime>): (request: Request) => Promise<Response> {
  return (request) => handleRestRequest(request, getRuntime);
}

export const handleRest = createRestHandler(getWebRuntime);

function handleRestRequest(request: Request, getRuntime: () => Promise<WebRuntime>): Promise<Response> {
  const context = createRequestContext(request.headers);
  return withLogContext({ requestId: context.requestId }, () => answerRest(request, getRuntime, context));
}

async function answerRest(
  request: Request,
  getRuntime: () => Promise<WebRuntime>,
  context: RequestContext,
): Promise<Response> {
  const url = new URL(request.url);
  let runtime: WebRuntime;
  try {
    runtime = await getRuntime();
  } catch (error) {
    log.error({ err: error }, 'runtime unavailable');
    return problemResponse(serviceUnavailableProblem(context.requestId));
  }
  const owner = runtime.registry.ownerOfPath(url.pathname);
  if (owner && !owner.enabled) {
    return governedProblemResponse(runtime, {
      ...featureDisabledProblem(owner),
      instance: url.pathname,
      requestId: context.requestId,
    });
  }
  if (url.pathname === `${API_BASE}/openapi.json` && request.method === 'GET') {
    return Response.json(openApiDocumentFor(runtime.registry), { headers: { 'X-Request-Id': context.requestId } });
  }
  const refuse = (problem: Problem) =>
    governedProblemResponse(runtime, { ...problem, instance: url.pathname, requestId: context.requestId });
  const badUrl = checkUrl(url);
  if (badUrl) return refuse(badUrl);
  // Who is calling is known before a byte of the body is read: anonymous callers get the small limit.
  let trpcContext: TrpcContext;
  try {
    trpcContext = await createTrpcContext(runtime, request, context);
  } catch (error) {
    log.error({ err: error }, 'cannot resolve the caller');
    return problemResponse(serviceUnavailableProblem(context.requestId));
  }
  const guarded = await guardBody(request, bodyLimit(runtime, trpcContext, request));
  if ('problem' in guarded) return refuse(guarded.problem);
  const forwarded = await withCommonFlags(guarded.request, url);
  if ('problem' in forwarded) return refuse(forwarded.problem);
  if (forwarded.request.method === 'GET' || forwarded.request.method === 'DELETE') {
    // Their input is the query string: booleans are typed here, once (query-input.ts).
    const input = queryInput(openApiDocumentFor(runtime.registry), request.method, new URL(forwarded.request.url));
    if ('problem' in input) return refuse(input.problem);
    Object.defineProperty(forwarded.request, 'query', { value: input.query });
  }
  const response = await callProcedures(forwarded.request, API_BASE, {
    context: { ...trpcContext, http: { ...trpcContext.http, rest: true } },
    onError: (error) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof ProblemError))
        log.error({ err: error.cause ?? error, method: request.method, path: url.pathname }, 'request failed');
    },
  });
  return finalise(response, trpcContext, url, runtime);
}

/**
 * `?dryRun=` and `?override=` are accepted on every mutating endpoint (the spec's common parameters), each at most
 * once and exactly `true` or `false`. A POST, PUT or PATCH reads its input from the JSON body, so the flags are
 * merged into it; a DELETE reads the query, so flags sent in its body are merged into the query. A dry run asked
 * anywhere wins; an override given twice must agree.
 */
async function withCommonFlags(request: Request, url: URL): Promise<{ request: Request } | Refusal> {
  if (!MUTATING.has(request.method)) return { request };
  const query = queryFlags(url);
  if ('problem' in query) return query;
  const toQuery = request.method === 'DELETE';
  const json = request.headers.get('content-type')?.includes('application/json') === true;
  if (query.flags.size === 0 && !toQuery && !json) return { request };
  const text = await request.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { problem: malformedRequestProblem() };
  }
  // An operation's input is an object. Any other JSON (an array, `true`, `null`) was spread into no fields and ran
  // with every default — `dryRun: false` among them, so `?dryRun=true` with a body of `[]` made a real, audited
  // change (found by the REST fuzzing, issue 34).
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problem: validationProblem([{ field: 'body', message: 'must be a JSON object' }]) };
  if (query.flags.size === 0 && !toQuery) return { request: new Request(request, { body: text }) };
  const merged = mergeFlags(query.flags, body as Record<string, unknown>, toQuery);
  if ('problem' in merged) return merged;
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  const target = new URL(request.url);
  if (toQuery)
    for (const flag of COMMON_FLAGS) if (flag in merged.body) target.searchParams.set(flag, String(merged.body[flag]));
  return {
    request: new Request(target, {
      method: request.method,
      headers,
      body: JSON.stringify(merged.body),
      signal: request.signal,
    }),
  };
}

function queryFlags(url: URL): { flags: Map<Flag, boolean> } | Refusal {
  const flags = new Map<Flag, boolean>();
  const errors: { field: string; message: string }[] = [];
  for (const flag of COMMON_FLAGS) {
    const values = url.searchParams.getAll(flag);
    if (values.length > 1) errors.push({ field: flag, message: 'must be given at most once' });
    else if (values[0] === 'true' || values[0] === 'false') flags.set(flag, values[0] === 'true');
    else if (values.length === 1) errors.push({ field: flag, message: 'must be true or false' });
  }
  return errors.length > 0 ? { problem: validationProblem(errors) } : { flags };
}

/**
 * The body with the query's flags merged in. A body flag that is not a boolean is left for the procedure's schema
 * to refuse, except on a DELETE, whose body the procedure never sees: refused here.
 */
function mergeFlags(
  query: ReadonlyMap<Flag, boolean>,
  body: Record<string, unknown>,
  strictHere: boolean,
): { body: Record<string, unknown> } | Refusal {
  const merged = { ...body };
  const errors: { field: string; message: string }[] = [];
  for (const flag of COMMON_FLAGS) {
    const given = merged[flag];
    const asked = query.get(flag);
    if (given !== undefined && typeof given !== 'boolean') {
      if (strictHere) errors.push({ field: flag, message: 'must be true or false' });
    } else if (asked === undefined || given === undefined) {
      if (asked !== undefined) merged[flag] = asked;
    } else if (flag === 'dryRun') merged[flag] = asked || given;
    else if (asked !== given) errors.push({ field: flag, message: 'the query and the body disagree' });
  }
  return errors.length > 0 ? { problem: validationProblem(errors) } : { body: merged };
}

async function finalise(
  response: Response,
  { request: context, responseHeaders }: TrpcContext,
  url: URL,
  runtime: WebRuntime,
): Promise<Response> {
  if (response.status < 400) {
    const headers = new Headers(response.headers);
    headers.set('X-Request-Id', context.requestId);
    // API answers are never cached anywhere: some carry secrets shown once (a new token), all carry live state.
    headers.set('Cache-Control', 'no-store');
    for (const cookie of responseHeaders.getSetCookie()) headers.append('Set-Cookie', cookie);
    return new Response(response.body, { status: response.status, headers });
  }
  const body = (await response.json().catch(() => undefined)) as { data?: { problem?: Problem } } | undefined;
  const problem =
    body?.data?.problem ??
    (response.status === 404 ? notFoundProblem(NO_ROUTE) : internalErrorProblem(context.requestId));
  // The cluster guard's 404 must not echo the cluster id, and the path would: it goes without `instance`.
  const instance = problem.type === CLUSTER_NOT_FOUND.type ? {} : { instance: url.pathname };
  return governedProblemResponse(runtime, { ...problem, ...instance, requestId: context.requestId });
}
