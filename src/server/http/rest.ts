// Every /api/v1 REST request passes here: feature gate by path prefix, the OpenAPI document, the common
// mutation parameters, the procedures (through trpc-to-openapi) and, on any failure, RFC 9457 problem+json.
import { CLUSTER_NOT_FOUND, type TrpcContext } from '@/modules/kernel/access/index.ts';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import {
  createRequestContext,
  internalErrorProblem,
  malformedRequestProblem,
  NO_ROUTE,
  notFoundProblem,
  type Problem,
  ProblemError,
  problemResponse,
  serviceUnavailableProblem,
  validationProblem,
} from '@/modules/kernel/core/index.ts';
import { featureDisabledProblem } from '@/modules/kernel/plugin/index.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { appRouter } from '@/installation/app-router.ts';
import { createTrpcContext } from './context.ts';
import { openApiDocumentFor } from './openapi.ts';
import { bodyLimit, checkUrl, guardBody } from './request-guard.ts';

const API_BASE = '/api/v1';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const COMMON_FLAGS = ['dryRun', 'override'] as const;

/** Next.js calls route handlers with a second argument, so the runtime source is bound here, not passed. */
export function createRestHandler(getRuntime: () => Promise<WebRuntime>): (request: Request) => Promise<Response> {
  return (request) => handleRestRequest(request, getRuntime);
}

export const handleRest = createRestHandler(getWebRuntime);

async function handleRestRequest(request: Request, getRuntime: () => Promise<WebRuntime>): Promise<Response> {
  const context = createRequestContext(request.headers);
  const url = new URL(request.url);
  let runtime: WebRuntime;
  try {
    runtime = await getRuntime();
  } catch (error) {
    console.error(`[rest] ${context.requestId} runtime unavailable:`, error);
    return problemResponse(serviceUnavailableProblem(context.requestId));
  }
  const owner = runtime.registry.ownerOfPath(url.pathname);
  if (owner && !owner.enabled) {
    return problemResponse({ ...featureDisabledProblem(owner), instance: url.pathname, requestId: context.requestId });
  }
  if (url.pathname === `${API_BASE}/openapi.json` && request.method === 'GET') {
    return Response.json(openApiDocumentFor(runtime.registry), { headers: { 'X-Request-Id': context.requestId } });
  }
  const refuse = (problem: Problem) =>
    problemResponse({ ...problem, instance: url.pathname, requestId: context.requestId });
  const badUrl = checkUrl(url);
  if (badUrl) return refuse(badUrl);
  // Who is calling is known before a byte of the body is read: anonymous callers get the small limit.
  let trpcContext: TrpcContext;
  try {
    trpcContext = await createTrpcContext(runtime, request, context);
  } catch (error) {
    console.error(`[rest] ${context.requestId} cannot resolve the caller:`, error);
    return problemResponse(serviceUnavailableProblem(context.requestId));
  }
  const guarded = await guardBody(request, bodyLimit(runtime, trpcContext));
  if ('problem' in guarded) return refuse(guarded.problem);
  const forwarded = await withCommonFlags(guarded.request, url);
  if ('problem' in forwarded) return refuse(forwarded.problem);
  const response = await createOpenApiFetchHandler({
    endpoint: API_BASE,
    router: appRouter,
    req: forwarded.request,
    createContext: () => Promise.resolve({ ...trpcContext, http: { ...trpcContext.http, rest: true } }),
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof ProblemError))
        console.error(`[rest] ${context.requestId} ${request.method} ${url.pathname}:`, error.cause ?? error);
    },
  });
  return finalise(response, trpcContext, url);
}

/**
 * `?dryRun=` and `?override=` are accepted on every mutating endpoint (the spec's common parameters). The
 * procedures read them from their input, so they are moved into the JSON body here, in one place.
 */
async function withCommonFlags(request: Request, url: URL): Promise<{ request: Request } | { problem: Problem }> {
  const flags = COMMON_FLAGS.filter((flag) => url.searchParams.has(flag));
  if (!MUTATING.has(request.method) || flags.length === 0) return { request };
  const errors = flags
    .filter((flag) => !['true', 'false'].includes(url.searchParams.get(flag) ?? ''))
    .map((flag) => ({ field: flag, message: 'must be true or false' }));
  if (errors.length > 0) return { problem: validationProblem(errors) };
  const text = await request.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { problem: malformedRequestProblem() };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { request: new Request(request, { body: text }) };
  const merged: Record<string, unknown> = { ...body };
  for (const flag of flags) merged[flag] = url.searchParams.get(flag) === 'true';
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return {
    request: new Request(request.url, {
      method: request.method,
      headers,
      body: JSON.stringify(merged),
      signal: request.signal,
    }),
  };
}

async function finalise(
  response: Response,
  { request: context, responseHeaders }: TrpcContext,
  url: URL,
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
  return problemResponse({ ...problem, ...instance, requestId: context.requestId });
}
