import { ClusterOverviewScreen } from '@/modules/platform/clusters/ui/cluster-overview.screen.tsx';

export default function ClusterPage() {
  return <ClusterOverviewScreen />;
}
