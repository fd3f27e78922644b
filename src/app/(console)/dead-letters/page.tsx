import { DeadLettersScreen } from '@/modules/feature/queues/ui.ts';

export default function DeadLettersPage() {
  return <DeadLettersScreen />;
}
