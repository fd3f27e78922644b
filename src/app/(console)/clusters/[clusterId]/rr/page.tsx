import { RrFlowsScreen } from '@/modules/feature/rr/ui.ts';

export default function ClusterRrPage() {
  return <RrFlowsScreen />;
}
