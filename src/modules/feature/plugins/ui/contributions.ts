import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const pluginsUi = defineModuleUi({
  moduleId: 'plugins',
  routes: ['/admin/plugins'],
  contributions: [
    { slot: 'admin.tabs', id: 'plugins', group: 'Installation', label: 'Plugins', href: '/admin/plugins' },
  ],
});
