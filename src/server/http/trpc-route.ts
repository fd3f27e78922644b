// /api/trpc: the console's typed client. Same procedures, same context and same errors as REST.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { ProblemError } from '@/modules/kernel/core/problem.ts';
import { createRequestContext } from '@/modules/kernel/core/request-context.ts';
import { getWebRuntime } from '../runtime/web-runtime.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createTrpcContext } from './context.ts';

export async function handleTrpcRequest(request: Request): Promise<Response> {
  const base = createRequestContext(request.headers);
  const runtime = await getWebRuntime();
  const context = await createTrpcContext(runtime, request, base);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => context,
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof ProblemError))
        console.error(`[trpc] ${base.requestId} ${path ?? ''}:`, error.cause ?? error);
    },
    responseMeta: () => {
      const headers = new Headers({ 'X-Request-Id': base.requestId });
      for (const cookie of context.responseHeaders.getSetCookie()) headers.append('Set-Cookie', cookie);
      return { headers };
    },
  });
}
