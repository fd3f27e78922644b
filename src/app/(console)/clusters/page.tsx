import { ClustersScreen } from '@/modules/platform/clusters/ui.ts';

export default function ClustersPage() {
  return <ClustersScreen />;
}
