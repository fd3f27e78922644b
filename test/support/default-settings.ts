// Every setting at its declared default, as a fresh installation reads it: for the tests and benches that run a
// module's service without a settings store (no database rows, no bus).
import { parseDuration, type SettingsReader } from '@/modules/kernel/plugin/index.ts';

export const DEFAULT_SETTINGS: SettingsReader = {
  duration: (setting) => {
    const milliseconds = parseDuration(setting.defaultValue);
    if (milliseconds === undefined)
      throw new Error(`${setting.key}'s default ${String(setting.defaultValue)} is not a duration`);
    return milliseconds;
  },
  integer: (setting) => Number(setting.defaultValue),
  boolean: (setting) => setting.defaultValue === true,
  string: (setting) => String(setting.defaultValue),
};
