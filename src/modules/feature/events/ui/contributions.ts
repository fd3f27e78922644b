import { IconActivity } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { RecentEventsPanel } from './recent-events-panel.tsx';

export const eventsUi = defineModuleUi({
  moduleId: 'events',
  routes: ['/events', '/clusters/{clusterId}/events'],
  navigation: [{ group: 'activity', label: 'Events', href: '/events', icon: IconActivity, order: 20 }],
  contributions: [{ slot: 'queue.detail.panels', id: 'recent-events', order: 20, component: RecentEventsPanel }],
});
