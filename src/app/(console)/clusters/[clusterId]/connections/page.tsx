import { ConnectionsScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterConnectionsPage() {
  return <ConnectionsScreen />;
}
