// /api/trpc: the console's typed client. Same procedures, same context and same errors as REST.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createRequestContext } from '@/modules/kernel/core/request-context.ts';
import { getWebRuntime } from '../runtime/web-runtime.ts';
import { appRouter } from '../trpc/app-router.ts';

export async function handleTrpcRequest(request: Request): Promise<Response> {
  const context = createRequestContext(request.headers);
  const runtime = await getWebRuntime();
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => ({ runtime, request: context }),
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        console.error(`[trpc] ${context.requestId} ${path ?? ''}:`, error.cause ?? error);
    },
    responseMeta: () => ({ headers: new Headers({ 'X-Request-Id': context.requestId }) }),
  });
}
