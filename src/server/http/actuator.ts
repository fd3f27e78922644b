// Actuator endpoints: grouped health (informational, always 200), liveness and readiness (for orchestrators).
import { getWebRuntime } from '../runtime/web-runtime.ts';
import { healthReport, isReady } from './health.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function flotillaHealth(): Promise<Response> {
  const runtime = await getWebRuntime().catch(() => undefined);
  if (!runtime)
    return Response.json({ status: 'DOWN', components: {}, detail: 'database unreachable' }, { headers: NO_STORE });
  return Response.json(await healthReport(runtime), { headers: NO_STORE });
}

export function liveness(): Response {
  return Response.json({ status: 'UP' }, { headers: NO_STORE });
}

export async function readiness(): Promise<Response> {
  const runtime = await getWebRuntime().catch(() => undefined);
  const ready = runtime ? await isReady(runtime) : false;
  return Response.json({ status: ready ? 'UP' : 'DOWN' }, { status: ready ? 200 : 503, headers: NO_STORE });
}
