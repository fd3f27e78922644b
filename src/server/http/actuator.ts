// Actuator endpoints: grouped health (informational, always 200), liveness and readiness (for orchestrators).
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { createTrpcContext } from './context.ts';
import { HEALTH_DETAILS_PERMISSION, healthReport, isReady, publicHealth } from './health.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Grouped health; the details only for a caller holding the details permission everywhere, else status and counts. */
export async function flotillaHealth(request: Request): Promise<Response> {
  const runtime = await getWebRuntime().catch(() => undefined);
  if (!runtime) return Response.json({ status: 'DOWN', components: {}, counts: {} }, { headers: NO_STORE });
  return healthResponse(runtime, request);
}

export async function healthResponse(runtime: WebRuntime, request: Request): Promise<Response> {
  const report = await healthReport(runtime);
  const caller = await createTrpcContext(runtime, request).catch(() => undefined);
  const detailed = caller?.principal && (await caller.globalPermissions()).has(HEALTH_DETAILS_PERMISSION);
  return Response.json(detailed ? report : publicHealth(report), { headers: NO_STORE });
}

export function liveness(): Response {
  return Response.json({ status: 'UP' }, { headers: NO_STORE });
}

export async function readiness(): Promise<Response> {
  const runtime = await getWebRuntime().catch(() => undefined);
  const ready = runtime ? await isReady(runtime) : false;
  return Response.json({ status: ready ? 'UP' : 'DOWN' }, { status: ready ? 200 : 503, headers: NO_STORE });
}
