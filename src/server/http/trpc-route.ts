// /api/trpc: the console's typed client. Same procedures, same context and same errors as REST.
import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createRequestContext, ProblemError, problemResponse } from '@/modules/kernel/core/index.ts';
import { getWebRuntime } from '../runtime/web-runtime.ts';
import { appRouter } from '@/installation/app-router.ts';
import { createTrpcContext } from './context.ts';
import { bodyLimit, checkUrl, guardBody } from './request-guard.ts';

// The console sends one call per request. A batch would let one request run many calls behind one check (200
// sign-ins behind one look at the throttle), so a batch of more than one call is refused before anything runs.
function batchedCalls(request: Request): number {
  const url = new URL(request.url);
  if (!url.searchParams.has('batch')) return 1;
  return url.pathname.slice('/api/trpc/'.length).split(',').length;
}

export async function handleTrpcRequest(request: Request): Promise<Response> {
  const base = createRequestContext(request.headers);
  if (batchedCalls(request) > 1) {
    return problemResponse({
      type: 'batch-refused',
      title: 'Batches are not accepted',
      status: 400,
      detail: 'Send one call per request: /api/trpc takes no batch of several calls.',
      requestId: base.requestId,
    });
  }
  const runtime = await getWebRuntime();
  const context = await createTrpcContext(runtime, request, base);
  const badUrl = checkUrl(new URL(request.url));
  const guarded = badUrl ? { problem: badUrl } : await guardBody(request, bodyLimit(runtime, context));
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: 'request' in guarded ? guarded.request : new Request(request.url, { method: request.method }),
    router: appRouter,
    // A refused input is answered in tRPC's own error shape (the console reads the problem from it).
    createContext: () => {
      if ('problem' in guarded) {
        const code = guarded.problem.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
        throw new TRPCError({ code, message: guarded.problem.title, cause: new ProblemError(guarded.problem) });
      }
      return context;
    },
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof ProblemError))
        console.error(`[trpc] ${base.requestId} ${path ?? ''}:`, error.cause ?? error);
    },
    responseMeta: () => {
      const headers = new Headers({ 'X-Request-Id': base.requestId, 'Cache-Control': 'no-store' });
      for (const cookie of context.responseHeaders.getSetCookie()) headers.append('Set-Cookie', cookie);
      return { headers };
    },
  });
}
