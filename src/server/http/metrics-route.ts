// GET /metrics for Prometheus (platform/telemetry): its own access rule — a scrape token or an allowlisted
// address, not a user — so it is neither a procedure nor behind the session/API-token chain (a scrape token is no
// `as_` token, and the bearer throttle would count it as a guess). Refusals are problem+json like every edge.
import {
  createRequestContext,
  internalErrorProblem,
  problemResponse,
  serviceUnavailableProblem,
} from '@/modules/kernel/core/index.ts';
import { METRICS_CONTENT_TYPE, renderMetrics, scrapeRefusal } from '@/modules/platform/telemetry/index.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { checkUrl } from './request-guard.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('telemetry');

/** `getRuntime` is the web process's own unless a test serves the route from a runtime it opened. */
export function createMetricsHandler(getRuntime: () => Promise<WebRuntime>): (request: Request) => Promise<Response> {
  return async (request) => {
    const context = createRequestContext(request.headers);
    const url = new URL(request.url);
    const refuse = (problem: Parameters<typeof problemResponse>[0], headers: HeadersInit = {}) =>
      problemResponse({ ...problem, instance: url.pathname, requestId: context.requestId }, headers);
    const runtime = await getRuntime().catch(() => undefined);
    if (!runtime) return problemResponse(serviceUnavailableProblem(context.requestId));
    const badUrl = checkUrl(url);
    if (badUrl) return refuse(badUrl);
    const refusal = scrapeRefusal(runtime.settings, request.headers, context.sourceIp);
    if (refusal)
      return refuse(refusal, refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="flotilla-metrics"' } : {});
    try {
      return new Response(await renderMetrics(runtime), {
        headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
      });
    } catch (error) {
      log.error({ err: error, requestId: context.requestId }, 'cannot render the metrics');
      return problemResponse(internalErrorProblem(context.requestId));
    }
  };
}

export const handleMetricsRoute = createMetricsHandler(getWebRuntime);
