import { QueuesScreen } from '@/modules/feature/queues/ui/queues.screen.tsx';

export default function ClusterQueuesPage() {
  return <QueuesScreen />;
}
