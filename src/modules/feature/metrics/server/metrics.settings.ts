// The metrics module's runtime settings: the consumer-health window and thresholds.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

const METRICS_SETTING_KEYS = {
  healthWindow: 'metrics.health-window',
  healthMinSamples: 'metrics.health-min-samples',
  healthTrendPercent: 'metrics.health-trend-percent',
} as const;

/** Each declaration by name: a read names one (`settings.duration(METRICS_SETTINGS.x)`), never a bare key. */
export const METRICS_SETTINGS = {
  healthWindow: durationSetting({
    key: METRICS_SETTING_KEYS.healthWindow,
    description: 'The window consumer health judges a queue over: rates and the depth trend are taken across it.',
    defaultValue: '5m',
    min: '1m',
    max: '1h',
  }),
  healthMinSamples: integerSetting({
    key: METRICS_SETTING_KEYS.healthMinSamples,
    description: 'Fewer samples of a queue than this in the window give INSUFFICIENT_DATA.',
    defaultValue: 3,
    min: 2,
    max: 1_000,
  }),
  healthTrendPercent: integerSetting({
    key: METRICS_SETTING_KEYS.healthTrendPercent,
    description:
      'How much the depth must change over the window, in percent of its start (at least one message), to count as growing (FALLING_BEHIND) or shrinking (DRAINING).',
    defaultValue: 5,
    min: 0,
    max: 1_000,
  }),
};

export const metricsSettings = Object.values(METRICS_SETTINGS);
