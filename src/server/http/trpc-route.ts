// /api/trpc: the console's typed client. Same procedures, same context and same errors as REST: every failure is
// problem+json with its HTTP status and the request id, and carries tRPC's own `error` member too, so the console's
// client reads it as a tRPC error (error.data.problem).
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { type TrpcContext, trpcCodeOf } from '@/modules/kernel/access/index.ts';
import {
  createRequestContext,
  type Problem,
  ProblemError,
  problemResponse,
  type RequestContext,
  serviceUnavailableProblem,
} from '@/modules/kernel/core/index.ts';
import { logger, withLogContext } from '@/base/log/log.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { appRouter } from '@/installation/app-router.ts';
import { createTrpcContext } from './context.ts';
import { governedProblem } from './governed-problem.ts';
import { bodyLimit, checkUrl, guardBody } from './request-guard.ts';
import { strictBooleanInputs } from './strict-booleans.ts';

strictBooleanInputs(appRouter);
const log = logger('trpc');

const BATCH_REFUSED: Problem = {
  type: 'batch-refused',
  title: 'Batches are not accepted',
  status: 400,
  detail: 'Send one call per request: /api/trpc takes no batch, not even of one call.',
};

// The console sends one call per request. A batch would let one request run many calls behind one check (200
// sign-ins behind one look at the throttle), and tRPC answers even a batch of one as an array of its own errors,
// not problem+json (found by fuzz-trpc.int.test.ts): any `batch` parameter is refused before anything runs.
function isBatch(url: URL): boolean {
  return url.searchParams.has('batch');
}

/** A problem answered as problem+json that tRPC's client also reads as one of its errors. */
function trpcProblemResponse(problem: Problem, headers: Headers = new Headers()): Response {
  const key = trpcCodeOf(problem.status);
  const error = {
    message: problem.detail ?? problem.title,
    code: TRPC_ERROR_CODES_BY_KEY[key],
    data: { code: key, httpStatus: problem.status, problem },
  };
  return withProblem(problem, { error }, headers);
}

/** The problem at the top level (as REST answers it) and tRPC's `error` member beside it. */
function withProblem(problem: Problem, trpcBody: { error: unknown }, headers: Headers): Response {
  const kept = new Headers(headers);
  kept.delete('Content-Length');
  kept.delete('Content-Type');
  return problemResponse({ ...problem, ...trpcBody }, kept);
}

/**
 * A tRPC error answer as problem+json: its problem at the top level, with this request's id, through the content
 * policy as on the REST edge (a detail may quote what the caller typed: a queue name, input that is no JSON), and
 * tRPC's message beside it the governed detail.
 */
async function finalise(response: Response, requestId: string, runtime: WebRuntime): Promise<Response> {
  if (response.status < 400) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { message?: string; data?: { problem?: Problem } } } | undefined;
  const problem = body?.error?.data?.problem;
  if (!problem || !body.error) return response;
  const shown = await governedProblem(runtime, { ...problem, requestId });
  const message = shown.detail ?? shown.title;
  const error = { ...body.error, message, data: { ...body.error.data, problem: shown } };
  return withProblem(shown, { error }, response.headers);
}

/** The runtime source is bound here (Next.js passes route handlers a second argument). */
export function createTrpcHandler(getRuntime: () => Promise<WebRuntime>): (request: Request) => Promise<Response> {
  return (request) => handleTrpc(request, getRuntime);
}

export const handleTrpcRequest = createTrpcHandler(getWebRuntime);

function handleTrpc(request: Request, getRuntime: () => Promise<WebRuntime>): Promise<Response> {
  const base = createRequestContext(request.headers);
  return withLogContext({ requestId: base.requestId }, () => answerTrpc(request, getRuntime, base));
}

async function answerTrpc(
  request: Request,
  getRuntime: () => Promise<WebRuntime>,
  base: RequestContext,
): Promise<Response> {
  const url = new URL(request.url);
  const refuse = (problem: Problem) => trpcProblemResponse({ ...problem, requestId: base.requestId });
  if (isBatch(url)) return refuse(BATCH_REFUSED);
  const runtime = await getRuntime().catch((error: unknown) => {
    log.error({ err: error }, 'runtime unavailable');
    return undefined;
  });
  if (!runtime) return refuse(serviceUnavailableProblem(base.requestId));
  // Resolving the caller reads the database: down or restarting, that is a 503 to retry, as on the REST edge.
  let context: TrpcContext;
  try {
    context = await createTrpcContext(runtime, request, base);
  } catch (error) {
    log.error({ err: error }, 'cannot resolve the caller');
    return refuse(serviceUnavailableProblem(base.requestId));
  }
  const badUrl = checkUrl(url);
  if (badUrl) return refuse(badUrl);
  const guarded = await guardBody(request, bodyLimit(runtime, context, request));
  if ('problem' in guarded) return refuse(guarded.problem);
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: guarded.request,
    router: appRouter,
    createContext: () => context,
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof ProblemError))
        log.error({ err: error.cause ?? error, procedure: path }, 'call failed');
    },
    responseMeta: () => {
      const headers = new Headers({ 'X-Request-Id': base.requestId, 'Cache-Control': 'no-store' });
      for (const cookie of context.responseHeaders.getSetCookie()) headers.append('Set-Cookie', cookie);
      return { headers };
    },
  });
  return finalise(response, base.requestId, runtime);
}
