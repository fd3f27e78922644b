import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { TokensAccountSection } from './tokens-account-section.tsx';
import { TOKENS_PATH } from './tokens-path.ts';

// Personal tokens belong to the account area: a section on /account and the header's user menu lead to the screen.
export const apiTokensUi = defineModuleUi({
  moduleId: 'apitokens',
  routes: [TOKENS_PATH],
  contributions: [{ slot: 'account.sections', id: 'api-tokens', component: TokensAccountSection }],
});
