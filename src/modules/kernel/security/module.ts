import { createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import { SECURITY_SETTINGS } from './server/security.settings.ts';
import type { BearerProviderDeclaration, SignInProviderDeclaration } from './server/providers.ts';

export type {
  BearerProvider,
  BearerProviderDeclaration,
  CredentialProvider,
  SignInProviderDeclaration,
} from './server/providers.ts';

/** Ways to sign in (local passwords, OpenID providers): listed on the sign-in page, asked in module order. */
export const signInProviders = createExtensionPoint<SignInProviderDeclaration>({
  id: 'security.sign-in-providers',
  owner: 'security',
  cardinality: 'many',
});

/** Resolvers of `Authorization: Bearer` tokens; each answers for its own tokens only. */
export const bearerProviders = createExtensionPoint<BearerProviderDeclaration>({
  id: 'security.bearer-providers',
  owner: 'security',
  cardinality: 'many',
});

export const securityModule = defineModule({
  id: 'security',
  title: 'Security',
  layer: 'kernel',
  description: 'Principals, roles, scoped grants, sessions, the sign-in throttle and the request-filter chain.',
  requires: ['core', 'access', 'plugin', 'audit'],
  permissions: [
    { id: 'users:read', description: 'See users', includedIn: 'admin' },
    { id: 'users:write', description: 'Create, change and remove users', includedIn: 'admin' },
    { id: 'roles:read', description: 'See roles and grants', includedIn: 'admin' },
    { id: 'roles:write', description: 'Create, change and remove roles and grants', includedIn: 'admin' },
  ],
  settings: Object.values(SECURITY_SETTINGS),
  extensionPoints: [signInProviders, bearerProviders],
  // /api/v1/account/tokens belongs to the apitokens feature (the longer prefix wins).
  apiPrefixes: [
    '/api/v1/auth',
    '/api/v1/account',
    '/api/v1/users',
    '/api/v1/roles',
    '/api/v1/grants',
    '/api/v1/identity',
  ],
});
