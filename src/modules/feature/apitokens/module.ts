import { contribution, defineModule, durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';
import { bearerProviders } from '@/modules/kernel/security/module.ts';

export const apiTokensModule = defineModule({
  id: 'apitokens',
  title: 'API tokens',
  layer: 'feature',
  description: 'Personal API tokens (`as_…`) for scripts and agents; a token acts as its owner.',
  requires: ['core', 'access', 'audit', 'security'],
  settings: [
    integerSetting({
      key: 'apitokens.max-per-user',
      description: 'How many API tokens one user may hold at once (revoke one to make another).',
      defaultValue: 50,
      min: 1,
      max: 10_000,
    }),
    durationSetting({
      key: 'apitokens.max-lifetime',
      description: 'The longest a token may live; a token created without an expiry gets this one.',
      defaultValue: '730d',
      min: '1h',
      max: '3650d',
    }),
  ],
  apiPrefixes: ['/api/v1/account/tokens'],
  contributions: [
    contribution(bearerProviders, { id: 'api-token', load: () => import('./server/api-token-bearer.ts') }),
  ],
});
