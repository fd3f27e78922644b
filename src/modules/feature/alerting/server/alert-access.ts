// Who may see and change which alerts and rules. An alert belongs to a cluster: alert:read on that cluster (from a
// global, environment or cluster grant) shows it, alert:write there acknowledges or silences it; one the caller may
// not read answers exactly like one that does not exist. A rule's scope decides for the rule: a cluster rule needs
// the permission on its cluster, an environment rule on the environment itself, a rule over every cluster a global
// grant. Channels serve rules of every scope and hold secrets: changing them needs alert:write everywhere.
import type { PrismaClient } from '@/base/db/database.ts';
import {
  canSeeCluster,
  CLUSTER_NOT_FOUND,
  clusterPermissions,
  environmentPermissions,
  type EffectiveGrant,
} from '@/modules/kernel/access/index.ts';
import { notFoundProblem, ProblemError } from '@/modules/kernel/core/index.ts';
import { listClusterLocations } from '@/modules/platform/clusters/index.ts';

type AlertPermission = 'alert:read' | 'alert:write';

interface RuleScope {
  readonly clusterId: string | null;
  readonly environmentId: string | null;
}

export interface AlertAccess {
  /** The clusters where the caller holds the permission. */
  clustersWith(permission: AlertPermission): ReadonlySet<string>;
  /** Whether the caller holds the permission at a rule's scope. */
  onScope(scope: RuleScope, permission: AlertPermission): boolean;
  /** Refuses, as "no such alert", an alert of a cluster the caller may not read; 403 when read-only there. */
  requireOnAlert(alert: { readonly clusterId: string }, permission: AlertPermission): void;
  /** Refuses an existing rule the caller may not read (as "no such rule") or change at its scope (403). */
  requireOnRule(scope: RuleScope, permission: AlertPermission): void;
  /** Refuses a scope a rule is created in or moved to: an unseen cluster as unknown, else 403 without alert:write. */
  requireTargetScope(scope: RuleScope): void;
}

function forbidden(permission: string, where: string): ProblemError {
  return new ProblemError({
    type: 'forbidden',
    title: 'Permission missing',
    status: 403,
    detail: `This needs the permission ${permission} ${where}, which none of your grants gives.`,
    permission,
  });
}

function scopeWords(scope: RuleScope): string {
  if (scope.clusterId) return 'on the rule’s cluster';
  if (scope.environmentId) return 'on the rule’s environment';
  return 'everywhere (the rule covers every cluster)';
}

/** Refuses a caller who holds the permission nowhere (a list would only ever be empty for them). */
export function requireAnywhere(grants: readonly EffectiveGrant[], permission: AlertPermission): void {
  if (!grants.some((grant) => grant.permissions.includes(permission))) {
    throw new ProblemError({
      type: 'forbidden',
      title: 'Permission missing',
      status: 403,
      detail: `This needs the permission ${permission}, which none of your grants gives.`,
      permission,
    });
  }
}

export async function alertAccessOf(prisma: PrismaClient, grants: readonly EffectiveGrant[]): Promise<AlertAccess> {
  const clusters = await listClusterLocations(prisma);
  const environmentOf = new Map(clusters.map((cluster) => [cluster.id, cluster.environmentId]));
  const clusterHas = (clusterId: string, permission: AlertPermission) =>
    environmentOf.has(clusterId) &&
    clusterPermissions(grants, { clusterId, environmentId: environmentOf.get(clusterId) ?? null }).has(permission);
  const onScope = (scope: RuleScope, permission: AlertPermission) =>
    scope.clusterId
      ? clusterHas(scope.clusterId, permission)
      : environmentPermissions(grants, scope.environmentId).has(permission);
  return {
    clustersWith: (permission) =>
      new Set(clusters.filter((cluster) => clusterHas(cluster.id, permission)).map((cluster) => cluster.id)),
    onScope,
    requireOnAlert(alert, permission) {
      if (!clusterHas(alert.clusterId, 'alert:read')) {
        throw new ProblemError(notFoundProblem('There is no alert with that id.'));
      }
      if (!clusterHas(alert.clusterId, permission)) throw forbidden(permission, 'on the alert’s cluster');
    },
    requireOnRule(scope, permission) {
      if (!onScope(scope, 'alert:read'))
        throw new ProblemError(notFoundProblem('There is no alert rule with that id.'));
      if (!onScope(scope, permission)) throw forbidden(permission, scopeWords(scope));
    },
    requireTargetScope(scope) {
      // A cluster the caller cannot see answers exactly like one that does not exist.
      if (scope.clusterId && !clusterHas(scope.clusterId, 'alert:read')) {
        const visible =
          environmentOf.has(scope.clusterId) &&
          canSeeCluster(grants, {
            clusterId: scope.clusterId,
            environmentId: environmentOf.get(scope.clusterId) ?? null,
          });
        if (!visible) throw new ProblemError(CLUSTER_NOT_FOUND);
      }
      if (!onScope(scope, 'alert:write')) throw forbidden('alert:write', scopeWords(scope));
    },
  };
}

/**
 * One alert with its rule's name and severity, when the caller holds `permission` where it lives: an alert the
 * caller may not read answers 404 as an unknown one does, one it may read but not change answers 403.
 */
export async function alertFor(
  prisma: PrismaClient,
  grants: readonly EffectiveGrant[],
  id: string,
  permission: AlertPermission,
) {
  const alert = await prisma.alert.findUnique({
    where: { id },
    include: { rule: { select: { name: true, severity: true } } },
  });
  if (!alert) throw new ProblemError(notFoundProblem('There is no alert with that id.'));
  (await alertAccessOf(prisma, grants)).requireOnAlert(alert, permission);
  return alert;
}
