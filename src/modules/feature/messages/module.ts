import { defineModule } from '@/modules/kernel/plugin/index.ts';

export const messagesModule = defineModule({
  id: 'messages',
  title: 'Messages',
  layer: 'feature',
  description:
    'Browse a queue’s messages (native AMQP while the notification subscription is live: whole bodies, typed properties; the management channel for filters and deep pages, with truncation flagged) and send messages with typed properties; all content through the content policy, every send audited.',
  requires: ['core', 'access', 'broker', 'clusters', 'commands', 'governance', 'queues'],
  permissions: [
    {
      id: 'message:browse',
      description: 'Read a queue’s messages (masked by the content policy)',
      includedIn: 'operator',
    },
    { id: 'message:send', description: 'Send messages to an address or a queue', includedIn: 'operator' },
  ],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/messages'],
});
