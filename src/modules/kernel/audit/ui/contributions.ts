import { IconListSearch } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const auditUi = defineModuleUi({
  moduleId: 'audit',
  routes: ['/audit'],
  navigation: [{ group: 'activity', label: 'Audit log', href: '/audit', icon: IconListSearch }],
});
