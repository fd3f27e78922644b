import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const pluginUi = defineModuleUi({
  moduleId: 'plugin',
  routes: ['/admin/modules'],
  contributions: [
    { slot: 'admin.tabs', id: 'modules', group: 'Installation', label: 'Modules', href: '/admin/modules' },
  ],
});
