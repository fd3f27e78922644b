import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const accessUi = defineModuleUi({
  moduleId: 'access',
  routes: ['/admin/modules'],
  contributions: [
    { slot: 'admin.tabs', id: 'modules', group: 'Installation', label: 'Modules', href: '/admin/modules' },
  ],
});
