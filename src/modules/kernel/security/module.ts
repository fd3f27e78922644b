import { createExtensionPoint, defineModule, durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';
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
  settings: [
    durationSetting({
      key: 'security.session-lifetime',
      description: 'How long a console session lasts without use; each use extends it.',
      defaultValue: '12h',
      min: '5m',
      max: '30d',
    }),
    integerSetting({
      key: 'security.sign-in.pair-failures',
      description:
        'Failed sign-ins for one username from one address within the lockout window before that pair is locked ' +
        '(after two, each further attempt waits longer: 1 s, 2 s, 4 s …).',
      defaultValue: 5,
      min: 1,
      max: 1_000,
    }),
    integerSetting({
      key: 'security.sign-in.user-failures',
      description:
        'Failed sign-ins for one username from any address within the lockout window before the username is ' +
        'locked (an administrator can unlock it).',
      defaultValue: 50,
      min: 1,
      max: 100_000,
    }),
    integerSetting({
      key: 'security.sign-in.source-failures',
      description:
        'Failed sign-ins from one address within the lockout window before each further attempt from it waits ' +
        'longer (1 s doubling to a minute). An address is slowed down, never locked, so it cannot shut others out.',
      defaultValue: 20,
      min: 1,
      max: 100_000,
    }),
    durationSetting({
      key: 'security.sign-in.lockout',
      description: 'The window in which failures count, and how long a lock lasts.',
      defaultValue: '15m',
      min: '1s',
      max: '1d',
    }),
  ],
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
