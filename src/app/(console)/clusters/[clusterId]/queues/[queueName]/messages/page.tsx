import { MessagesScreen } from '@/modules/feature/messages/ui.ts';

export default function QueueMessagesPage() {
  return <MessagesScreen />;
}
