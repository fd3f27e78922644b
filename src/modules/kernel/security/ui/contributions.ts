import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const ACCESS_PATHS = {
  users: '/admin/access/users',
  roles: '/admin/access/roles',
  grants: '/admin/access/grants',
} as const;

export const securityUi = defineModuleUi({
  moduleId: 'security',
  routes: ['/admin/access'],
  contributions: [
    { slot: 'admin.tabs', id: 'users', group: 'Access', label: 'Users', href: ACCESS_PATHS.users, order: 10 },
    { slot: 'admin.tabs', id: 'roles', group: 'Access', label: 'Roles', href: ACCESS_PATHS.roles, order: 20 },
    { slot: 'admin.tabs', id: 'grants', group: 'Access', label: 'Grants', href: ACCESS_PATHS.grants, order: 30 },
  ],
});
