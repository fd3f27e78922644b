import { ClustersScreen } from '@/modules/platform/clusters/ui/clusters.screen.tsx';

export default function ClustersPage() {
  return <ClustersScreen />;
}
