import { QueueDetailScreen } from '@/modules/feature/queues/ui.ts';

export default function QueuePage() {
  return <QueueDetailScreen />;
}
