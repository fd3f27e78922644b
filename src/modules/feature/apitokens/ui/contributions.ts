import { IconKey } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';

// The shell has no account area yet (the `account.sections` slot is declared but nothing renders it), so the
// screen is a route of its own with a navigation entry under Configuration.
export const apiTokensUi = defineModuleUi({
  moduleId: 'apitokens',
  routes: ['/account/tokens'],
  navigation: [{ group: 'configuration', label: 'API tokens', href: '/account/tokens', icon: IconKey, order: 50 }],
});
