import { IconAlarm } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { FiringBadge } from './fleet-badge.tsx';

export const alertingUi = defineModuleUi({
  moduleId: 'alerting',
  routes: ['/alerts'],
  navigation: [{ group: 'observe', label: 'Alerts', href: '/alerts', icon: IconAlarm, order: 7 }],
  contributions: [{ slot: 'fleet.cluster.badges', id: 'firing-alerts', component: FiringBadge }],
});
