// The alerting module's runtime settings: how long a resolved alert may fire again and be reopened (flap damping),
// how long resolved alerts, their deliveries and the transition log are kept, and where the console is reached (so
// a notification links to its alert), and which non-public networks channels may reach (channel-reach.ts).
import { durationSetting, stringSetting, type SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { channelNetworksSetting } from './channel-reach.ts';

export const ALERTING_SETTING_KEYS = {
  flapWindow: 'alerting.flap-window',
  retention: 'alerting.retention',
  reaperInterval: 'alerting.reaper-interval',
  consoleUrl: 'alerting.console-url',
} as const;

/** Each declaration by name: a read names one (`settings.duration(ALERTING_SETTINGS.x)`), never a bare key. */
export const ALERTING_SETTINGS = {
  flapWindow: durationSetting({
    key: ALERTING_SETTING_KEYS.flapWindow,
    description:
      'An alert that fires again less than this after it resolved is reopened (its flaps counted) instead of raising a new one; its firing notification is held this long and dropped if it resolves meanwhile.',
    defaultValue: '5m',
    min: '0s',
    max: '1d',
  }),
  retention: durationSetting({
    key: ALERTING_SETTING_KEYS.retention,
    description:
      'How long resolved alerts, their delivery logs and the transition log are kept; older ones are deleted by the alerting.retention job.',
    defaultValue: '30d',
    min: '1h',
    max: '3650d',
  }),
  reaperInterval: durationSetting({
    key: ALERTING_SETTING_KEYS.reaperInterval,
    description: 'How often alert history older than alerting.retention is deleted.',
    defaultValue: '1h',
    min: '10s',
    max: '1d',
  }),
  consoleUrl: stringSetting({
    key: ALERTING_SETTING_KEYS.consoleUrl,
    description:
      'The address people reach this console at (https://flotilla.example.com). When set, every notification carries a link to its alert there; empty, none does.',
    defaultValue: '',
    pattern: /^(https?:\/\/[^\s/?#]+(\/[^\s?#]*)?)?$/,
    patternInWords: 'empty, or an http(s) address without query or fragment',
  }),
  channelNetworks: channelNetworksSetting,
};

export const alertingSettings = Object.values(ALERTING_SETTINGS);

/** The link to an alert in the console (its drawer open on the Alerts screen), or none without alerting.console-url. */
export function alertLinkOf(settings: SettingsReader | undefined, alertId: string): string | undefined {
  const base = settings?.string(ALERTING_SETTINGS.consoleUrl).replace(/\/+$/, '') ?? '';
  return base ? `${base}/alerts?open=${encodeURIComponent(alertId)}` : undefined;
}
