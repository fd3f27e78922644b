import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { messagesPath } from './message-paths.ts';
import { QueueMessagesPanel } from './queue-messages-panel.tsx';

export const messagesUi = defineModuleUi({
  moduleId: 'messages',
  routes: ['/clusters/{clusterId}/queues/{queueName}/messages'],
  contributions: [
    { slot: 'queue.detail.panels', id: 'queue-messages', order: 1, component: QueueMessagesPanel },
    {
      slot: 'queue.actions',
      id: 'browse-messages',
      section: 'Open',
      label: 'Browse messages',
      href: (target) => messagesPath(target.clusterId ?? '', target.key),
    },
  ],
});
