// Wires the stream kernel's endpoint to this process's runtime, behind the same request-filter chain as every
// API: an anonymous caller gets 401, and a cluster the caller cannot see gets the cluster access guard's 404.
// The installation scope (nil UUID, e.g. job health) needs only a signed-in caller. The query is parsed once,
// here: the guard checks, and the stream subscribes to, the same parsed value.
import {
  createRequestContext,
  ProblemError,
  problemResponse,
  serviceUnavailableProblem,
} from '@/modules/kernel/core/index.ts';
import { checkAccess, guardCluster, recordDenial } from '@/modules/kernel/access/index.ts';
import {
  enabledStreamTopics,
  INSTALLATION_SCOPE_ID,
  openStream,
  parseStreamQuery,
  STREAM_SETTINGS,
  type StreamQuery,
} from '@/modules/kernel/stream/index.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { createTrpcContext } from './context.ts';

/** The runtime source is bound here (Next.js passes route handlers a second argument). */
export function createStreamHandler(getRuntime: () => Promise<WebRuntime>): (request: Request) => Promise<Response> {
  return (request) => handleStream(request, getRuntime);
}

export const handleStreamRoute = createStreamHandler(getWebRuntime);

async function handleStream(request: Request, getRuntime: () => Promise<WebRuntime>): Promise<Response> {
  const base = createRequestContext(request.headers);
  const runtime = await getRuntime().catch(() => undefined);
  if (!runtime) return problemResponse(serviceUnavailableProblem(base.requestId));
  const context = await createTrpcContext(runtime, request, base);
  const url = new URL(request.url);
  let query: StreamQuery;
  try {
    await checkAccess({
      access: 'authenticated',
      isMutation: false,
      principal: context.principal,
      headers: request.headers,
      allowedBeforePasswordChange: false,
      globalPermissions: context.globalPermissions,
    });
    const parsed = parseStreamQuery(url);
    if ('problem' in parsed) throw new ProblemError({ ...parsed.problem, instance: url.pathname });
    query = parsed.query;
    if (query.clusterId !== INSTALLATION_SCOPE_ID) {
      await guardCluster({
        registry: runtime.registry,
        prisma: runtime.prisma,
        grants: context.grants,
        clusterId: query.clusterId,
      });
    }
  } catch (error) {
    await recordDenial(context, 'stream', error); // audited like a procedure's denials (kernel/access/denial-log.ts)
    if (error instanceof ProblemError) return problemResponse({ ...error.problem, requestId: base.requestId });
    throw error;
  }
  return openStream(query, request, context.request, {
    hub: runtime.stream,
    replay: runtime.replay,
    enabledTopics: await enabledStreamTopics(runtime.registry, runtime.bus),
    keepAliveMs: () => runtime.settings.duration(STREAM_SETTINGS.keepAlive),
    maxPerUser: () => runtime.settings.integer(STREAM_SETTINGS.maxPerUser),
  });
}
