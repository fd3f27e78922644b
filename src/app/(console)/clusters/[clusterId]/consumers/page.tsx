import { ConsumersScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterConsumersPage() {
  return <ConsumersScreen />;
}
