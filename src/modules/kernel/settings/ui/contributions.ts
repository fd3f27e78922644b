import { IconAdjustments } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const settingsUi = defineModuleUi({
  moduleId: 'settings',
  routes: ['/settings'],
  navigation: [{ group: 'configuration', label: 'Settings', href: '/settings', icon: IconAdjustments }],
});
