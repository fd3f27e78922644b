// The core module's settings. Its code reads each by its declaration here, so a misspelt name or a read
// of the wrong kind is a compile error.
import { integerSetting } from '@/modules/kernel/plugin/index.ts';

export const CORE_SETTINGS = {
  maxBodyBytes: integerSetting({
    key: 'http.max-body-bytes',
    description:
      'The largest request body the API accepts from a signed-in caller, in bytes (anonymous callers: 64 KiB). ' +
      'Larger ones are refused with 413 before they are read.',
    defaultValue: 1_048_576,
    min: 65_536,
    max: 104_857_600,
  }),
};
