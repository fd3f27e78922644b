import { ConsumerHealthScreen } from '@/modules/feature/metrics/ui.ts';

export default function ClusterConsumerHealthPage() {
  return <ConsumerHealthScreen />;
}
