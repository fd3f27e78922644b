// The tunables of the native client as plain milliseconds and counts. Defaults come from the setting
// declarations, so code that never saw a settings store (tests, scripts) behaves like a fresh installation.
import { parseDuration, type SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { NATIVE_SETTING_KEYS, NATIVE_SETTINGS, nativeSettings } from './native.settings.ts';

export interface NativeOptions {
  readonly reconnectInitialDelayMs: number;
  readonly reconnectMaxDelayMs: number;
  readonly connectTimeoutMs: number;
  readonly closeTimeoutMs: number;
  readonly browseMaxWindow: number;
}

function defaultOf(key: string): string | number | boolean {
  const declaration = nativeSettings.find((setting) => setting.key === key);
  if (!declaration) throw new Error(`No native setting ${key}`);
  return declaration.defaultValue;
}

function defaultDuration(key: string): number {
  const ms = parseDuration(defaultOf(key));
  if (ms === undefined) throw new Error(`Native setting ${key} has no duration default`);
  return ms;
}

export const DEFAULT_NATIVE_OPTIONS: NativeOptions = {
  reconnectInitialDelayMs: defaultDuration(NATIVE_SETTING_KEYS.reconnectInitialDelay),
  reconnectMaxDelayMs: defaultDuration(NATIVE_SETTING_KEYS.reconnectMaxDelay),
  connectTimeoutMs: defaultDuration(NATIVE_SETTING_KEYS.connectTimeout),
  closeTimeoutMs: defaultDuration(NATIVE_SETTING_KEYS.closeTimeout),
  browseMaxWindow: Number(defaultOf(NATIVE_SETTING_KEYS.browseMaxWindow)),
};

export function nativeOptionsFrom(settings: SettingsReader): NativeOptions {
  return {
    reconnectInitialDelayMs: settings.duration(NATIVE_SETTINGS.reconnectInitialDelay),
    reconnectMaxDelayMs: settings.duration(NATIVE_SETTINGS.reconnectMaxDelay),
    connectTimeoutMs: settings.duration(NATIVE_SETTINGS.connectTimeout),
    closeTimeoutMs: settings.duration(NATIVE_SETTINGS.closeTimeout),
    browseMaxWindow: settings.integer(NATIVE_SETTINGS.browseMaxWindow),
  };
}
