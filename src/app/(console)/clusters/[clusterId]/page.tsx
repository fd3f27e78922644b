import { ClusterOverviewScreen } from '@/modules/platform/clusters/ui.ts';

export default function ClusterPage() {
  return <ClusterOverviewScreen />;
}
