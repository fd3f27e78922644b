// The cluster access guard: a cluster-scoped procedure or stream names a cluster; the caller passes only when one
// of their grants reaches it (global, its environment, or the cluster itself). "No such cluster" and "not yours"
// answer the same 404, which names no permission and does not echo the id, so ids cannot be probed.
import { ProblemError, type Problem } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import type { ClusterLocator, LocatedCluster } from './cluster-locator.ts';
import { clusterLocatorPoint } from './module.ts';
import { refusedOnCluster } from './denial-log.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { addLogContext } from '@/base/log/log.ts';
import { clusterPermissions, type EffectiveGrant } from './grants.ts';

export const CLUSTER_NOT_FOUND: Problem = {
  type: 'cluster-not-found',
  title: 'No such cluster',
  status: 404,
  detail: 'There is no such cluster, or none of your grants reaches it.',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function looksLikeClusterId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

const locators = new WeakMap<ModuleRegistry, Promise<ClusterLocator | undefined>>();

/** The locator of the module that owns clusters, loaded once per registry; undefined while none is installed. */
function locatorOf(registry: ModuleRegistry): Promise<ClusterLocator | undefined> {
  let locator = locators.get(registry);
  if (!locator) {
    const [owner] = registry.contributionsTo(clusterLocatorPoint);
    locator = owner ? owner.value.load() : Promise.resolve(undefined);
    locators.set(registry, locator);
  }
  return locator;
}

export interface ClusterGuardInput {
  readonly registry: ModuleRegistry;
  readonly prisma: PrismaClient;
  readonly grants: () => Promise<readonly EffectiveGrant[]>;
  /** As the caller sent it: anything that is not a cluster id is treated like an unknown cluster. */
  readonly clusterId: unknown;
}

/** Where the cluster sits and what the caller may do on it; throws the one 404 when the caller cannot see it. */
export async function guardCluster(
  input: ClusterGuardInput,
): Promise<{ cluster: LocatedCluster; permissions: ReadonlySet<string> }> {
  const { clusterId } = input;
  if (!looksLikeClusterId(clusterId)) throw new ProblemError(CLUSTER_NOT_FOUND);
  const locator = await locatorOf(input.registry);
  const cluster = await locator?.locate(input.prisma, clusterId.toLowerCase());
  if (!cluster) throw new ProblemError(CLUSTER_NOT_FOUND);
  addLogContext({ clusterId: cluster.clusterId });
  const permissions = clusterPermissions(await input.grants(), cluster);
  // The caller sees the same 404 as for no cluster at all; the denial audit may know which cluster it was.
  if (permissions.size === 0) throw refusedOnCluster(new ProblemError(CLUSTER_NOT_FOUND), cluster);
  return { cluster, permissions };
}

/** A cluster-scoped permission the caller lacks on a cluster they can see: named, as a global one would be. */
export function requireClusterPermission(
  guarded: { readonly cluster: LocatedCluster; readonly permissions: ReadonlySet<string> },
  permission: string,
): void {
  if (guarded.permissions.has(permission)) return;
  const refusal = new ProblemError({
    type: 'forbidden',
    title: 'Permission missing',
    status: 403,
    detail: `This needs the permission ${permission} on this cluster, which none of your grants gives.`,
    permission,
  });
  throw refusedOnCluster(refusal, guarded.cluster);
}

/**
 * Whether a grant's (or group mapping's) scope names something that exists: an environment or cluster id that
 * names nothing is refused when the grant is made rather than lying dormant. Global always exists.
 */
export async function scopeExists(
  registry: ModuleRegistry,
  prisma: PrismaClient,
  scope: { readonly kind: string; readonly id?: string | null },
): Promise<boolean> {
  if (scope.kind === 'GLOBAL') return true;
  if (!scope.id || !looksLikeClusterId(scope.id)) return false;
  const locator = await locatorOf(registry);
  if (!locator) return false;
  const id = scope.id.toLowerCase();
  return scope.kind === 'CLUSTER'
    ? (await locator.locate(prisma, id)) !== undefined
    : locator.environmentExists(prisma, id);
}
