import { RoutingHomeScreen } from '@/modules/feature/routing/ui.ts';

export default function RoutingPage() {
  return <RoutingHomeScreen />;
}
