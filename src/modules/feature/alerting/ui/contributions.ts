import { IconAlarm } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const alertingUi = defineModuleUi({
  moduleId: 'alerting',
  routes: ['/alerts'],
  navigation: [{ group: 'observe', label: 'Alerts', href: '/alerts', icon: IconAlarm, order: 7 }],
});
