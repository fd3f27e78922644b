// Settings of the native (AMQP) side of the broker module. Owned by the native client; read through
// `nativeOptionsFrom` so the worker can re-apply them when an operator changes one.
import { durationSetting, integerSetting, type SettingDeclaration } from '@/modules/kernel/plugin/index.ts';

export const NATIVE_SETTING_KEYS = {
  reconnectInitialDelay: 'broker.native.reconnect-initial-delay',
  reconnectMaxDelay: 'broker.native.reconnect-max-delay',
  connectTimeout: 'broker.native.connect-timeout',
  closeTimeout: 'broker.native.close-timeout',
  browseMaxWindow: 'broker.native.browse-max-window',
} as const;

/** Each declaration by name: a read names one (`settings.duration(NATIVE_SETTINGS.x)`), never a bare key. */
export const NATIVE_SETTINGS = {
  reconnectInitialDelay: durationSetting({
    key: NATIVE_SETTING_KEYS.reconnectInitialDelay,
    description:
      'First wait before reconnecting a lost native (AMQP) connection; doubles up to the maximum, with jitter.',
    defaultValue: '1s',
    min: '100ms',
    max: '1m',
  }),
  reconnectMaxDelay: durationSetting({
    key: NATIVE_SETTING_KEYS.reconnectMaxDelay,
    description: 'Longest wait between reconnect attempts of a native (AMQP) connection.',
    defaultValue: '30s',
    min: '1s',
    max: '10m',
  }),
  connectTimeout: durationSetting({
    key: NATIVE_SETTING_KEYS.connectTimeout,
    description: 'How long a native (AMQP) connection may take to open before the attempt counts as failed.',
    defaultValue: '10s',
    min: '1s',
    max: '2m',
  }),
  closeTimeout: durationSetting({
    key: NATIVE_SETTING_KEYS.closeTimeout,
    description:
      'How long closing a native link or connection waits for the broker to answer before the socket is dropped.',
    defaultValue: '5s',
    min: '100ms',
    max: '1m',
  }),
  browseMaxWindow: integerSetting({
    key: NATIVE_SETTING_KEYS.browseMaxWindow,
    description:
      'Largest offset + limit a native browse walks; a page beyond it is refused so the caller falls back to management.',
    defaultValue: 2000,
    min: 1,
    max: 100_000,
  }),
};

export const nativeSettings: readonly SettingDeclaration[] = Object.values(NATIVE_SETTINGS);
