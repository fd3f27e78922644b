// The security module's settings. Its code reads each by its declaration here, so a misspelt name or a read
// of the wrong kind is a compile error.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const SECURITY_SETTINGS = {
  sessionLifetime: durationSetting({
    key: 'security.session-lifetime',
    description: 'How long a console session lasts without use; each use extends it.',
    defaultValue: '12h',
    min: '5m',
    max: '30d',
  }),
  signInPairFailures: integerSetting({
    key: 'security.sign-in.pair-failures',
    description:
      'Failed sign-ins for one username from one address within the lockout window before that pair is locked ' +
      '(after two, each further attempt waits longer: 1 s, 2 s, 4 s …).',
    defaultValue: 5,
    min: 1,
    max: 1_000,
  }),
  signInUserFailures: integerSetting({
    key: 'security.sign-in.user-failures',
    description:
      'Failed sign-ins for one username from any address within the lockout window before the username is ' +
      'locked (an administrator can unlock it).',
    defaultValue: 50,
    min: 1,
    max: 100_000,
  }),
  signInSourceFailures: integerSetting({
    key: 'security.sign-in.source-failures',
    description:
      'Failed sign-ins from one address within the lockout window before each further attempt from it waits ' +
      'longer (1 s doubling to a minute). An address is slowed down, never locked, so it cannot shut others out.',
    defaultValue: 20,
    min: 1,
    max: 100_000,
  }),
  signInLockout: durationSetting({
    key: 'security.sign-in.lockout',
    description: 'The window in which failures count, and how long a lock lasts.',
    defaultValue: '15m',
    min: '1s',
    max: '1d',
  }),
};
