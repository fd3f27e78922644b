import { QueueDetailScreen } from '@/modules/feature/queues/ui/queue-detail.screen.tsx';

export default function QueuePage() {
  return <QueueDetailScreen />;
}
