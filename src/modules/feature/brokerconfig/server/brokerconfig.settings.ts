// The brokerconfig module's runtime settings.
import { durationSetting, stringSetting } from '@/modules/kernel/plugin/index.ts';

const BROKERCONFIG_SETTING_KEYS = {
  driftInterval: 'config.drift.interval',
  approvalEnvironments: 'config.approval-environments',
} as const;

export const BROKERCONFIG_SETTINGS = {
  driftInterval: durationSetting({
    key: BROKERCONFIG_SETTING_KEYS.driftInterval,
    description:
      'How often the worker that owns a cluster compares its declared configuration with every live node (drift is also evaluated after every apply).',
    defaultValue: '1m',
    min: '5s',
    max: '1d',
  }),
  approvalEnvironments: stringSetting({
    key: BROKERCONFIG_SETTING_KEYS.approvalEnvironments,
    description:
      'Environments (names, comma-separated) whose clusters need a second person to approve a configuration plan before it is applied; empty: none.',
    defaultValue: 'production',
    pattern: /^[\w .-]*(,[\w .-]+)*$/,
    patternInWords: 'environment names separated by commas',
  }),
};

export const brokerconfigSettings = Object.values(BROKERCONFIG_SETTINGS);

/** The environment names whose applies need a second person (setting value, trimmed, case kept). */
export function approvalEnvironmentsOf(value: string): Set<string> {
  return new Set(
    value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}
