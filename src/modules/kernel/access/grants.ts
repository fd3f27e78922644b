// What a principal may do where. Grants give a role at a scope: GLOBAL, one ENVIRONMENT, or one CLUSTER; a
// cluster inherits what its environment and the installation grant. Pure, so it is tested on its own.

export type Scope = { readonly kind: 'GLOBAL' } | { readonly kind: 'ENVIRONMENT' | 'CLUSTER'; readonly id: string };

export interface EffectiveGrant {
  readonly scope: Scope;
  readonly permissions: readonly string[];
}

export interface ClusterLocation {
  readonly clusterId: string;
  readonly environmentId: string | null;
}

/** Permissions that hold everywhere: only global grants give them. */
export function globalPermissions(grants: readonly EffectiveGrant[]): Set<string> {
  return new Set(grants.filter((grant) => grant.scope.kind === 'GLOBAL').flatMap((grant) => grant.permissions));
}

/** Permissions on one cluster: global grants, its environment's grants and its own. */
export function clusterPermissions(grants: readonly EffectiveGrant[], cluster: ClusterLocation): Set<string> {
  return new Set(
    grants
      .filter(({ scope }) => {
        if (scope.kind === 'GLOBAL') return true;
        if (scope.kind === 'ENVIRONMENT') return scope.id === cluster.environmentId;
        return scope.id === cluster.clusterId;
      })
      .flatMap((grant) => grant.permissions),
  );
}

/**
 * Permissions at an environment itself (global grants and that environment's), or at the installation when
 * `environmentId` is null. Cluster-scoped grants never count here: a grant on one cluster does not reach the
 * environment it sits in, so it cannot be used to move the cluster elsewhere.
 */
export function environmentPermissions(grants: readonly EffectiveGrant[], environmentId: string | null): Set<string> {
  return new Set(
    grants
      .filter(({ scope }) => scope.kind === 'GLOBAL' || (scope.kind === 'ENVIRONMENT' && scope.id === environmentId))
      .flatMap((grant) => grant.permissions),
  );
}

/**
 * The cluster access guard's first question: may this principal see the cluster at all? Any permission on it
 * counts. The answer for "no" must look exactly like "no such cluster" to the caller.
 */
export function canSeeCluster(grants: readonly EffectiveGrant[], cluster: ClusterLocation): boolean {
  return clusterPermissions(grants, cluster).size > 0;
}
