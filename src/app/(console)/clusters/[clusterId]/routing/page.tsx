import { RoutingScreen } from '@/modules/feature/routing/ui.ts';

export default function ClusterRoutingPage() {
  return <RoutingScreen />;
}
