// The stream module's settings. Its code reads each by its declaration here, so a misspelt name or a read
// of the wrong kind is a compile error.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const STREAM_SETTINGS = {
  keepAlive: durationSetting({
    key: 'stream.keep-alive',
    description: 'How often an idle stream sends a `:ping` comment, so proxies and clients know it is alive.',
    defaultValue: '20s',
    min: '1s',
    max: '5m',
  }),
  maxPerUser: integerSetting({
    key: 'stream.max-per-user',
    description: 'How many streams one user may hold open at once in one web process; one more answers 429.',
    defaultValue: 10,
    min: 1,
    max: 1_000,
  }),
};
