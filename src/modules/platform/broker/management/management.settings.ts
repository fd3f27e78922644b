// Settings of the management (Jolokia) side of the broker module. Owned by the management client.
import {
  durationSetting,
  integerSetting,
  parseDuration,
  type SettingDeclaration,
  type SettingsReader,
} from '@/modules/kernel/plugin/index.ts';

const MANAGEMENT_SETTING_KEYS = {
  maxConcurrentCalls: 'broker.management.max-concurrent-calls',
  maxCallsPerSecond: 'broker.management.max-calls-per-second',
  timeout: 'broker.management.timeout',
} as const;

/** Each declaration by name; readers take the limits whole (managementLimitsOf, readManagementLimits). */
const MANAGEMENT_SETTINGS = {
  maxConcurrentCalls: integerSetting({
    key: MANAGEMENT_SETTING_KEYS.maxConcurrentCalls,
    description:
      'Management (Jolokia) calls in flight at once to one broker node; further calls wait their turn. Jolokia runs a bulk request item by item, so a few parallel calls are plenty.',
    defaultValue: 4,
    min: 1,
    max: 64,
  }),
  maxCallsPerSecond: integerSetting({
    key: MANAGEMENT_SETTING_KEYS.maxCallsPerSecond,
    description:
      'Management calls started per second to one broker node, so a busy Flotilla never floods a broker’s web server.',
    defaultValue: 20,
    min: 1,
    max: 1000,
  }),
  timeout: durationSetting({
    key: MANAGEMENT_SETTING_KEYS.timeout,
    description: 'How long one management call to a broker node may take before it counts as timed out.',
    defaultValue: '10s',
    min: '100ms',
    max: '5m',
  }),
};

export const managementSettings: readonly SettingDeclaration[] = Object.values(MANAGEMENT_SETTINGS);

export interface ManagementLimits {
  readonly maxConcurrentCalls: number;
  readonly maxCallsPerSecond: number;
  readonly timeoutMs: number;
}

export const DEFAULT_MANAGEMENT_LIMITS: ManagementLimits = {
  maxConcurrentCalls: 4,
  maxCallsPerSecond: 20,
  timeoutMs: 10_000,
};

/** The limits as the settings say now; `read` is the settings store's getter (a value or undefined). */
export function readManagementLimits(read: (key: string) => unknown): ManagementLimits {
  const integer = (key: string, fallback: number) => {
    const value = read(key);
    return typeof value === 'number' ? value : fallback;
  };
  return {
    maxConcurrentCalls: integer(
      MANAGEMENT_SETTING_KEYS.maxConcurrentCalls,
      DEFAULT_MANAGEMENT_LIMITS.maxConcurrentCalls,
    ),
    maxCallsPerSecond: integer(MANAGEMENT_SETTING_KEYS.maxCallsPerSecond, DEFAULT_MANAGEMENT_LIMITS.maxCallsPerSecond),
    timeoutMs: parseDuration(read(MANAGEMENT_SETTING_KEYS.timeout)) ?? DEFAULT_MANAGEMENT_LIMITS.timeoutMs,
  };
}

/** The limits as a typed settings reader gives them (a worker service's `context.settings`). */
export function managementLimitsOf(settings: SettingsReader): ManagementLimits {
  return {
    maxConcurrentCalls: settings.integer(MANAGEMENT_SETTINGS.maxConcurrentCalls),
    maxCallsPerSecond: settings.integer(MANAGEMENT_SETTINGS.maxCallsPerSecond),
    timeoutMs: settings.duration(MANAGEMENT_SETTINGS.timeout),
  };
}
