// Wires the stream kernel's endpoint to this process's runtime, behind the same request-filter chain as every
// API: an anonymous caller gets 401, and a cluster the caller cannot see gets the cluster access guard's 404.
// The installation scope (nil UUID, e.g. job health) needs only a signed-in caller.
import {
  createRequestContext,
  ProblemError,
  problemResponse,
  serviceUnavailableProblem,
} from '@/modules/kernel/core/index.ts';
import { checkAccess, guardCluster, looksLikeClusterId } from '@/modules/kernel/access/index.ts';
import { handleStreamRequest, INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { getWebRuntime } from '../runtime/web-runtime.ts';
import { createTrpcContext } from './context.ts';

export async function handleStreamRoute(request: Request): Promise<Response> {
  const base = createRequestContext(request.headers);
  const runtime = await getWebRuntime().catch(() => undefined);
  if (!runtime) return problemResponse(serviceUnavailableProblem(base.requestId));
  const context = await createTrpcContext(runtime, request, base);
  try {
    await checkAccess({
      access: 'authenticated',
      isMutation: false,
      principal: context.principal,
      headers: request.headers,
      allowedBeforePasswordChange: false,
      globalPermissions: context.globalPermissions,
    });
    const clusterId = new URL(request.url).searchParams.get('clusterId');
    // A malformed id is left to the endpoint's own validation (400); a well-formed one must name a visible cluster.
    if (looksLikeClusterId(clusterId) && clusterId !== INSTALLATION_SCOPE_ID) {
      await guardCluster({ registry: runtime.registry, prisma: runtime.prisma, grants: context.grants, clusterId });
    }
  } catch (error) {
    if (error instanceof ProblemError) return problemResponse({ ...error.problem, requestId: base.requestId });
    throw error;
  }
  return handleStreamRequest(request, context.request, {
    hub: runtime.stream,
    replay: runtime.replay,
    enabledTopics: runtime.registry.enabledTopics(),
    keepAliveMs: () => runtime.settings.duration('stream.keep-alive'),
  });
}
