import { ConnectionScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterConnectionPage() {
  return <ConnectionScreen />;
}
