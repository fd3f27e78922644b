// The clusters module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { clusterOwnershipOf } from './ha/cluster-ownership.ts';
export {
  listClusterIds,
  listClusterLocations,
  listPolledNodes,
  loadLiveThroughTargets,
  loadManagementTargets,
} from './server/management-targets.ts';
export type { ManagementTargets } from './server/management-targets.ts';
export type { PolledHaState } from './server/polls/poll-change.ts';
export { loadStoredSubscriptions } from './ha/ha-store.ts';
export { splitBrainOf } from './ha/split-brain-query.ts';
export { recordNodePoll, recordNodePollFailure } from './server/polls/record-node-poll.ts';
export {
  capabilityRecheckIntervalMs,
  recordManagementEvidence,
  recordManagementRecheck,
  recordWriteOutcome,
} from './server/capabilities/management-evidence.ts';
export type { ManagementFailure } from './server/capabilities/management-evidence.ts';
export { getCluster, listCapabilities, visibleClusters } from './server/cluster-query.ts';
export type { FleetCluster } from './server/cluster-query.ts';
export { loadCommandTargets } from './server/targets/command-targets.ts';
export type { CommandTargets } from './server/targets/command-targets.ts';
export { managementClientFor, nodeFailureOf } from './server/targets/node-clients.ts';
export { liveReadFailed } from './server/targets/live-read-failed.ts';
export type { NodeFailure } from './server/targets/node-clients.ts';
export { refuseReservedNames, reservedAddressesOf } from './server/targets/reserved-addresses.ts';
