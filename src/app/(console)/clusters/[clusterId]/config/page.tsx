import { ConfigScreen } from '@/modules/feature/brokerconfig/ui.ts';

export default function ClusterConfigPage() {
  return <ConfigScreen />;
}
