import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { TokensAccountSection } from './tokens-account-section.tsx';
import { TOKENS_PATH } from './tokens-path.ts';

// Personal tokens belong to the account area: their section on /account (the user menu's Your account) leads here.
export const apiTokensUi = defineModuleUi({
  moduleId: 'apitokens',
  routes: [TOKENS_PATH],
  contributions: [{ slot: 'account.sections', id: 'api-tokens', component: TokensAccountSection }],
});
