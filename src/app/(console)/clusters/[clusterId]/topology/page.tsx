import { ClusterTopologyScreen } from '@/modules/platform/clusters/ui.ts';

export default function ClusterTopologyPage() {
  return <ClusterTopologyScreen />;
}
