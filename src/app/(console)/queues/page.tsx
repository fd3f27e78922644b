import { QueuesHomeScreen } from '@/modules/feature/queues/ui.ts';

export default function QueuesPage() {
  return <QueuesHomeScreen />;
}
