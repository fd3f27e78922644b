import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const governanceUi = defineModuleUi({
  moduleId: 'governance',
  routes: ['/admin/governance'],
  contributions: [
    { slot: 'admin.tabs', id: 'governance', group: 'Governance', label: 'Content policy', href: '/admin/governance' },
  ],
});
