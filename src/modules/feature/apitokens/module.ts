import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { API_TOKEN_SETTINGS } from './server/api-tokens.settings.ts';
import { bearerProviders } from '@/modules/kernel/security/module.ts';

export const apiTokensModule = defineModule({
  id: 'apitokens',
  title: 'API tokens',
  layer: 'feature',
  description: 'Personal API tokens (`as_…`) for scripts and agents; a token acts as its owner.',
  requires: ['core', 'access', 'audit', 'security'],
  settings: Object.values(API_TOKEN_SETTINGS),
  apiPrefixes: ['/api/v1/account/tokens'],
  contributions: [
    contribution(bearerProviders, { id: 'api-token', load: () => import('./server/api-token-bearer.ts') }),
  ],
});
