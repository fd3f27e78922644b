import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

export const identityOidcUi = defineModuleUi({
  moduleId: 'identity-oidc',
  routes: ['/admin/identity-providers'],
  contributions: [
    {
      slot: 'admin.tabs',
      id: 'identity-providers',
      group: 'Access',
      label: 'Identity providers',
      href: '/admin/identity-providers',
      // After the security kernel's Users, Roles and Grants (10–30).
      order: 40,
    },
  ],
});
