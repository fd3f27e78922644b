// Loads settings from flotilla_setting and keeps the in-memory store in step with the database bus.
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import type { SettingValue } from '@/modules/kernel/plugin/index.ts';
import { settingsRuntimeDeclarations, type RuntimeSetting } from './runtime-declarations.ts';
import { SETTINGS_CHANNEL, SettingsStore, type DeclaredSetting, type StoredSetting } from './settings-store.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('settings');

async function readStoredSettings(db: Database, key?: string): Promise<StoredSetting[]> {
  const rows = await db.prisma.flotillaSetting.findMany({ where: key ? { key } : {} });
  return rows.map((row) => ({ key: row.key, value: row.value, updatedAt: row.updatedAt, updatedBy: row.updatedBy }));
}

/** Startup properties (feature toggles) as the registry needs them, read before any module is loaded. */
export async function readStartupProperties(db: Database): Promise<Map<string, unknown>> {
  const rows = await db.prisma.flotillaSetting.findMany({ where: { scope: 'STARTUP' } });
  return new Map(rows.map((row) => [row.key, row.value]));
}

export function createSettingsStore(
  registry: ModuleRegistry,
  environment: Readonly<Record<string, string | undefined>>,
): SettingsStore {
  const declared = new Map<string, DeclaredSetting>();
  for (const entry of registry.modules) {
    if (entry.enabled) {
      for (const declaration of entry.descriptor.settings) {
        // A colon is the runtime settings' (their rows are `runtime:<key>`), so no module's row can be one of theirs.
        if (declaration.key.includes(':')) throw new Error(`Setting key ${declaration.key} must not hold a colon`);
        declared.set(declaration.key, { declaration, module: entry.descriptor.id });
      }
    }
  }
  for (const declaration of registry.settingDeclarations()) {
    if (declared.has(declaration.key)) continue;
    const moduleId = declaration.key.split('.')[2] ?? 'plugin';
    declared.set(declaration.key, { declaration, module: moduleId, startupValue: registry.isEnabled(moduleId) });
  }
  return new SettingsStore(declared, environment, registry.contributionsTo(settingsRuntimeDeclarations));
}

const stores = new WeakMap<DatabaseBus, SettingsStore>();

/**
 * A runtime setting's value in the process whose bus this is (its stored value, else its default): what a running
 * plugin reads. The store follows the bus, so a change anywhere reaches it within a second.
 */
export function runtimeSettingValue(bus: DatabaseBus, setting: RuntimeSetting): SettingValue {
  return stores.get(bus)?.runtimeValue(setting) ?? setting.defaultValue;
}

/** Initial load plus live updates: one key re-read per notification, everything re-read after a reconnect. */
export async function loadAndFollowSettings(store: SettingsStore, db: Database, bus: DatabaseBus): Promise<void> {
  stores.set(bus, store);
  await store.followRuntimeDeclarations(bus);
  bus.listen(SETTINGS_CHANNEL, (key) => {
    readStoredSettings(db, key)
      .then((rows) => store.replaceOne(key, rows[0]))
      .catch((error: unknown) => log.error({ err: error, key }, 'cannot re-read the setting'));
  });
  bus.onReconnect(() => {
    readStoredSettings(db)
      .then((rows) => store.replaceAll(rows))
      .catch((error: unknown) => log.error({ err: error }, 'cannot reload the settings'));
  });
  store.replaceAll(await readStoredSettings(db));
}
