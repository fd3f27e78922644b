import { defineModule } from '../../kernel/plugin/descriptor.ts';

export const apiTokensModule = defineModule({
  id: 'apitokens',
  title: 'API tokens',
  layer: 'feature',
  description: 'Personal API tokens (`as_…`) for scripts and agents; a token acts as its owner.',
  requires: ['core', 'audit', 'security'],
  apiPrefixes: ['/api/v1/account/tokens'],
  bearerProviders: [{ id: 'api-token', load: () => import('./server/api-token-bearer.ts') }],
});
