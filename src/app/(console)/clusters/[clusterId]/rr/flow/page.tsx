import { RrFlowScreen } from '@/modules/feature/rr/ui.ts';

export default function ClusterRrFlowPage() {
  return <RrFlowScreen />;
}
