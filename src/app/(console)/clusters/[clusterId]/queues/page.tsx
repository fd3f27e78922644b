import { QueuesScreen } from '@/modules/feature/queues/ui.ts';

export default function ClusterQueuesPage() {
  return <QueuesScreen />;
}
