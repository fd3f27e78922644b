// A plugin's manifest settings as the kernel's settings store declares them, and the value a plugin reads
// (api.settings.get): the store's, which follows the bus, so a change anywhere reaches the plugin within a second.
import type { DatabaseBus } from '@/base/db/bus.ts';
import { runtimeSettingValue, type RuntimeSetting } from '@/modules/kernel/settings/index.ts';
import type { PluginManifest } from '../../validation/manifest.ts';

export function declaredSettingsOf(id: string, manifest: Partial<Pick<PluginManifest, 'settings'>>): RuntimeSetting[] {
  return (manifest.settings ?? []).map((setting) => ({
    key: setting.key,
    kind: setting.type,
    description: setting.description,
    defaultValue: setting.default,
    source: id,
  }));
}

/** The stored value, else the manifest's default; undefined for a key the manifest does not declare. */
export function pluginSettingValue(bus: DatabaseBus, id: string, manifest: PluginManifest, key: string): unknown {
  const setting = declaredSettingsOf(id, manifest).find((candidate) => candidate.key === key);
  return setting ? runtimeSettingValue(bus, setting) : undefined;
}
