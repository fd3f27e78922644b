// The clusters module's public entry for the browser: the screens its routes render and the parts other modules'
// screens may use (the broker command dialog every write goes through, and the capability gate of write controls).
// Server code stays out of it, so a page never pulls the database client into its bundle.
export { ClusterOverviewScreen, ClusterTopologyScreen } from './ui/cluster-overview.screen.tsx';
export { ClustersScreen } from './ui/clusters.screen.tsx';
export { RegisterClusterScreen } from './ui/register-cluster.screen.tsx';
export {
  CapabilityNote,
  GateIcon,
  GateTooltip,
  useCapabilityGate,
  useWritesOff,
  writesOffOf,
} from './ui/capability-gate.tsx';
export type { CapabilityGate } from './ui/gate-of.ts';
export { formatCount, type CommandResult } from './ui/command-nodes.tsx';
export { OperationDialog, type OperationSpec, type RunFlags } from './ui/operation-dialog.tsx';
