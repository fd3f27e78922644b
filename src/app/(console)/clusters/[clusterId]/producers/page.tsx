import { ProducersScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterProducersPage() {
  return <ProducersScreen />;
}
