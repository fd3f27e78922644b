import { QueuesHomeScreen } from '@/modules/feature/queues/ui/queues-home.screen.tsx';

export default function QueuesPage() {
  return <QueuesHomeScreen />;
}
