// Refused calls are audited: the procedure kit and the stream edge hand every denial to the one module that
// contributes `access.denial-log` (the audit module), which keeps it deduplicated. Access owns the question, so
// it imports nothing from the module that answers; without a contribution denials are simply not kept.
import { type Problem, ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import type { DeniedCluster, DenialLog } from './denial-log-contract.ts';
import { denialLogPoint } from './module.ts';
import type { ProcedureRuntime } from './procedure-context.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('access');

const logs = new WeakMap<ModuleRegistry, Promise<DenialLog | undefined>>();

function logOf(registry: ModuleRegistry): Promise<DenialLog | undefined> {
  let log = logs.get(registry);
  if (!log) {
    const [owner] = registry.contributionsTo(denialLogPoint);
    log = owner ? owner.value.load() : Promise.resolve(undefined);
    logs.set(registry, log);
  }
  return log;
}

/**
 * Which errors are denials: 403 of any kind (permission, CSRF, origin), the cluster guard's 404, 409, and the
 * denial log's own 429 for a caller who caused too many such rows.
 */
function isDenial(problem: Problem): boolean {
  return (
    problem.status === 403 ||
    problem.status === 409 ||
    problem.type === 'cluster-not-found' ||
    problem.type === AUDIT_FLOOD
  );
}

/** The problem type of the denial log's refusal of a caller who caused too many failed, dry-run and denied rows. */
export const AUDIT_FLOOD = 'audit-flood';

const hiddenClusters = new WeakMap<Error, DeniedCluster>();

/** Marks the guard's 404 or 403 with the existing cluster it refused, for the audit only (never the caller). */
export function refusedOnCluster<E extends Error>(error: E, cluster: DeniedCluster): E {
  hiddenClusters.set(error, { clusterId: cluster.clusterId, name: cluster.name });
  return error;
}

/**
 * Hands a refusal by a signed-in caller to the denial log. Anonymous callers are not kept: they have no principal
 * to key on, and keying on the address would let anyone write rows (their floods are bounded by the sign-in and
 * bearer throttles instead). Never throws: the caller is refused either way.
 */
export async function recordDenial(
  context: { readonly runtime: ProcedureRuntime; readonly request: RequestContext },
  route: string,
  error: unknown,
  cluster?: DeniedCluster,
): Promise<void> {
  if (!(error instanceof ProblemError) || !isDenial(error.problem)) return;
  if (!context.request.actor.userId) return;
  try {
    const log = await logOf(context.runtime.registry);
    await log?.record(context.runtime, context.request, {
      route,
      problem: error.problem,
      error,
      cluster: hiddenClusters.get(error) ?? cluster,
    });
  } catch (failure) {
    log.error({ err: failure, route }, 'cannot audit the denial');
  }
}

/** Throws the denial log's 429 when the caller has caused too many failed, dry-run and denied rows lately. */
export async function refuseAuditFlood(context: {
  readonly runtime: ProcedureRuntime;
  readonly request: RequestContext;
}): Promise<void> {
  if (!context.request.actor.userId) return;
  const refusal = await (await logOf(context.runtime.registry))?.floodRefusal(context.runtime, context.request);
  if (refusal) throw new ProblemError(refusal);
}
