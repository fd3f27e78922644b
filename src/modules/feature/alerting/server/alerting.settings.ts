// The alerting module's runtime settings: how long a resolved alert may fire again and be reopened (flap damping),
// and how long resolved alerts, their deliveries and the transition log are kept.
import { durationSetting } from '@/modules/kernel/plugin/index.ts';

export const ALERTING_SETTING_KEYS = {
  flapWindow: 'alerting.flap-window',
  retention: 'alerting.retention',
  reaperInterval: 'alerting.reaper-interval',
} as const;

export const alertingSettings = [
  durationSetting({
    key: ALERTING_SETTING_KEYS.flapWindow,
    description:
      'An alert that fires again less than this after it resolved is reopened (its flaps counted) instead of raising a new one; its firing notification is held this long and dropped if it resolves meanwhile.',
    defaultValue: '5m',
    min: '0s',
    max: '1d',
  }),
  durationSetting({
    key: ALERTING_SETTING_KEYS.retention,
    description:
      'How long resolved alerts, their delivery logs and the transition log are kept; older ones are deleted by the alerting.retention job.',
    defaultValue: '30d',
    min: '1h',
    max: '3650d',
  }),
  durationSetting({
    key: ALERTING_SETTING_KEYS.reaperInterval,
    description: 'How often alert history older than alerting.retention is deleted.',
    defaultValue: '1h',
    min: '10s',
    max: '1d',
  }),
];
