import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const jobsUi = defineModuleUi({
  moduleId: 'jobs',
  routes: ['/admin/jobs'],
  contributions: [{ slot: 'admin.tabs', id: 'jobs', group: 'Support', label: 'System jobs', href: '/admin/jobs' }],
});
