import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { signInProviders } from '@/modules/kernel/security/module.ts';
import { configuredOidcProviders, OIDC_BASE_PATH, startPathOf } from './server/oidc-config.ts';

export const identityOidcModule = defineModule({
  id: 'identity-oidc',
  title: 'OpenID Connect sign-in',
  layer: 'feature',
  description:
    'Browser sign-in at external OpenID providers (FLOTILLA_OIDC_PROVIDERS); accounts are created just in time and ' +
    'their groups map to roles at every sign-in.',
  requires: ['core', 'plugin', 'security'],
  apiPrefixes: [OIDC_BASE_PATH],
  contributions: configuredOidcProviders().map(({ id, label }) =>
    contribution(signInProviders, { id, kind: 'redirect', label, startPath: startPathOf(id) }),
  ),
});
