import { defineModule } from '../../kernel/plugin/descriptor.ts';
import { configuredOidcProviders, OIDC_BASE_PATH, startPathOf } from './server/oidc-config.ts';

export const identityOidcModule = defineModule({
  id: 'identity-oidc',
  title: 'OpenID Connect sign-in',
  layer: 'feature',
  description:
    'Browser sign-in at external OpenID providers (FLOTILLA_OIDC_PROVIDERS); accounts are created just in time and ' +
    'their groups map to roles at every sign-in.',
  requires: ['core', 'plugin', 'audit', 'security', 'settings'],
  apiPrefixes: [OIDC_BASE_PATH],
  signInProviders: configuredOidcProviders().map(({ id, label }) => ({
    id,
    kind: 'redirect' as const,
    label,
    startPath: startPathOf(id),
  })),
});
