import { defineModule } from '../plugin/descriptor.ts';
import { durationSetting, integerSetting } from '../plugin/setting-types.ts';

export const securityModule = defineModule({
  id: 'security',
  title: 'Security',
  layer: 'kernel',
  description: 'Principals, roles, scoped grants, sessions, the sign-in throttle and the request-filter chain.',
  requires: ['core', 'plugin', 'audit', 'settings'],
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
      key: 'security.sign-in.user-failures',
      description: 'Failed sign-ins for one username within the lockout window before that username is locked.',
      defaultValue: 5,
      min: 1,
      max: 1_000,
    }),
    integerSetting({
      key: 'security.sign-in.source-failures',
      description: 'Failed sign-ins from one source address within the lockout window before that address is locked.',
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
