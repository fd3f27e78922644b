// /actuator/health/flotilla groups the health indicators that enabled modules contribute. It is informational and
// kept apart from liveness/readiness, so a broker outage never gets Flotilla restarted by an orchestrator.
import type { HealthComponent, HealthStatus } from '@/modules/kernel/plugin/index.ts';
import type { Runtime } from '../runtime/runtime.ts';

const INDICATOR_TIMEOUT_MS = 5_000;
const SEVERITY: Record<HealthStatus, number> = { UP: 0, UNKNOWN: 1, DEGRADED: 2, DOWN: 3 };

export interface HealthReport {
  readonly status: HealthStatus;
  readonly instanceId: string;
  readonly components: Record<string, HealthComponent>;
}

async function checkWithTimeout(check: () => Promise<HealthComponent>): Promise<HealthComponent> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HealthComponent>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'UNKNOWN', details: { error: `no answer within ${INDICATOR_TIMEOUT_MS} ms` } }),
      INDICATOR_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([check(), timeout]);
  } catch (error) {
    return { status: 'DOWN', details: { error: error instanceof Error ? error.message : String(error) } };
  } finally {
    clearTimeout(timer);
  }
}

export async function healthReport(runtime: Runtime): Promise<HealthReport> {
  const indicators = runtime.registry.enabledDescriptors.flatMap((descriptor) => descriptor.healthIndicators);
  const context = { instanceId: runtime.instanceId, prisma: runtime.prisma, registry: runtime.registry };
  const results = await Promise.all(
    indicators.map(async (indicator) => {
      const component = await checkWithTimeout(async () => (await indicator.load()).check(context));
      return [indicator.id, component] as const;
    }),
  );
  const status = results.reduce<HealthStatus>(
    (worst, [, component]) => (SEVERITY[component.status] > SEVERITY[worst] ? component.status : worst),
    'UP',
  );
  return { status, instanceId: runtime.instanceId, components: Object.fromEntries(results) };
}

/** The permission that shows the indicators' details (broker URLs, cluster ids, error text). */
export const HEALTH_DETAILS_PERMISSION = 'jobs:read';

export interface PublicHealthReport {
  readonly status: HealthStatus;
  readonly components: Record<string, { readonly status: HealthStatus }>;
  readonly counts: Partial<Record<HealthStatus, number>>;
}

/**
 * What anyone may see: the overall status, each indicator's status and how many are in each. The details name
 * clusters, broker management URLs and brokers' own error text, which are for signed-in operators only.
 */
export function publicHealth(report: HealthReport): PublicHealthReport {
  const counts: Partial<Record<HealthStatus, number>> = {};
  for (const component of Object.values(report.components))
    counts[component.status] = (counts[component.status] ?? 0) + 1;
  return {
    status: report.status,
    components: Object.fromEntries(Object.entries(report.components).map(([id, { status }]) => [id, { status }])),
    counts,
  };
}

/** Readiness: this process can serve requests, which needs its database. */
export async function isReady(runtime: Runtime): Promise<boolean> {
  try {
    await runtime.db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
