// The clusters module's public entry for the browser: the screens its routes render and the part other modules'
// screens may use (the capability gate of write controls, the cluster picker; the broker command dialog is the
// commands module's).
// Server code stays out of it, so a page never pulls the database client into its bundle.
export { ClusterOverviewScreen } from './ui/cluster-overview.screen.tsx';
export { ClusterTopologyScreen } from './ui/cluster-topology.screen.tsx';
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
export { ClusterChoice } from './ui/cluster-choice.tsx';
export { ClusterPicker, useClusterName } from './ui/cluster-picker.tsx';
