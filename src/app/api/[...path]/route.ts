// Anything under /api that is not /api/v1 or /api/trpc: a problem+json 404 rather than the console's HTML page.
import { NO_ROUTE, notFoundProblem, problemResponse, requestIdFrom } from '@/modules/kernel/core/index.ts';

export const dynamic = 'force-dynamic';

function notFound(request: Request): Response {
  return problemResponse({
    ...notFoundProblem(NO_ROUTE),
    instance: new URL(request.url).pathname,
    requestId: requestIdFrom(request.headers),
  });
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
