import { ConfigHomeScreen } from '@/modules/feature/brokerconfig/ui.ts';

export default function ConfigPage() {
  return <ConfigHomeScreen />;
}
