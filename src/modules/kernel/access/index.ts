// The access module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { checkAccess, requireCsrfToken, requireSignedInUser } from './access.ts';
export { AUDIT_FLOOD, recordDenial } from './denial-log.ts';
export { CLUSTER_NOT_FOUND, guardCluster, scopeExists } from './cluster-guard.ts';
export { canSeeCluster, clusterPermissions, environmentPermissions, globalPermissions } from './grants.ts';
export type { EffectiveGrant, Scope } from './grants.ts';
export type { Principal } from './principal.ts';
export { mergeRouters, moduleProcedure, router, trpcCodeOf } from './procedure.ts';
export type { ProcedureMeta, TrpcContext } from './procedure.ts';
