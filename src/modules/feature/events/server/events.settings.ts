// The events module's runtime settings.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const EVENTS_SETTING_KEYS = {
  retention: 'events.retention',
  bufferSize: 'events.buffer-size',
  reaperInterval: 'events.reaper-interval',
  remaskInterval: 'events.remask-interval',
} as const;

/** Each declaration by name: a read names one (`settings.duration(EVENTS_SETTINGS.x)`), never a bare key. */
export const EVENTS_SETTINGS = {
  retention: durationSetting({
    key: EVENTS_SETTING_KEYS.retention,
    description: 'How long broker events are kept; older ones are deleted by the events.retention job.',
    defaultValue: '72h',
    min: '1h',
    max: '90d',
  }),
  bufferSize: integerSetting({
    key: EVENTS_SETTING_KEYS.bufferSize,
    description:
      'How many notifications the worker holds before they are written; beyond it new ones are dropped and counted per cluster.',
    defaultValue: 20_000,
    min: 1,
    max: 1_000_000,
  }),
  reaperInterval: durationSetting({
    key: EVENTS_SETTING_KEYS.reaperInterval,
    description: 'How often events older than events.retention are deleted.',
    defaultValue: '10m',
    min: '10s',
    max: '1d',
  }),
  remaskInterval: durationSetting({
    key: EVENTS_SETTING_KEYS.remaskInterval,
    description:
      'How often stored events masked by an older content policy (or stored before sealing) are masked again with the policy in force, in batches.',
    defaultValue: '30s',
    min: '1s',
    max: '1h',
  }),
};

export const eventsSettings = Object.values(EVENTS_SETTINGS);
