// Wires the stream kernel's endpoint to this process's runtime.
import { problemResponse, serviceUnavailableProblem } from '@/modules/kernel/core/problem.ts';
import { createRequestContext } from '@/modules/kernel/core/request-context.ts';
import { handleStreamRequest } from '@/modules/kernel/stream/server/stream-endpoint.ts';
import { getWebRuntime } from '../runtime/web-runtime.ts';

export async function handleStreamRoute(request: Request): Promise<Response> {
  const context = createRequestContext(request.headers);
  const runtime = await getWebRuntime().catch(() => undefined);
  if (!runtime) {
    return problemResponse(serviceUnavailableProblem(context.requestId));
  }
  return handleStreamRequest(request, context, {
    hub: runtime.stream,
    replay: runtime.replay,
    enabledTopics: runtime.registry.enabledTopics(),
    keepAliveMs: () => runtime.settings.duration('stream.keep-alive'),
  });
}
