// The running plugins' declared settings, for settings.runtime-declarations: while a plugin runs in this web process
// its settings are in the kernel's settings store (listed, changed, audited and with their history, under Plugins);
// they go with it. Their values stay in flotilla_setting until a purge.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { RuntimeSetting } from '@/modules/kernel/settings/index.ts';
import { pluginsOf } from '../process-start.ts';
import { declaredSettingsOf } from './setting-values.ts';

export function runningPluginSettings(bus: DatabaseBus): readonly RuntimeSetting[] {
  return (pluginsOf(bus)?.manager.list() ?? []).flatMap((plugin) => declaredSettingsOf(plugin.id, plugin.manifest));
}
