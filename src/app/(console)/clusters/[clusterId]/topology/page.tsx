import { ClusterTopologyScreen } from '@/modules/platform/clusters/ui/cluster-overview.screen.tsx';

export default function ClusterTopologyPage() {
  return <ClusterTopologyScreen />;
}
