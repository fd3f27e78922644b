import { NodeScreen } from '@/modules/feature/resources/ui.ts';

export default function ClusterNodePage() {
  return <NodeScreen />;
}
