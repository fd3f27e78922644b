// The API tokens module's settings. Its code reads each by its declaration here, so a misspelt name or a read
// of the wrong kind is a compile error.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const API_TOKEN_SETTINGS = {
  maxPerUser: integerSetting({
    key: 'apitokens.max-per-user',
    description: 'How many API tokens one user may hold at once (revoke one to make another).',
    defaultValue: 50,
    min: 1,
    max: 10_000,
  }),
  maxLifetime: durationSetting({
    key: 'apitokens.max-lifetime',
    description: 'The longest a token may live; a token created without an expiry gets this one.',
    defaultValue: '730d',
    min: '1h',
    max: '3650d',
  }),
};
