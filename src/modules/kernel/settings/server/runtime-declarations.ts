// The settings.runtime-declarations point: settings that exist only while their source runs (a running runtime
// plugin's declared settings), beside the descriptors' fixed ones. While they exist the store lists, validates,
// stores, audits and announces them like any setting; when their source stops they leave the list, and their stored
// value waits in flotilla_setting for the next start (a purge forgets it).
import type { DatabaseBus } from '@/base/db/bus.ts';
import { createExtensionPoint, type SettingDeclaration } from '@/modules/kernel/plugin/index.ts';

export interface RuntimeSetting {
  /** Namespaced by its source, e.g. `naming-policy.pattern`. */
  readonly key: string;
  readonly kind: 'string' | 'integer' | 'boolean';
  readonly description: string;
  readonly defaultValue: string | number | boolean;
  /** What declared it, e.g. the runtime plugin's id. */
  readonly source: string;
}

export interface RuntimeSettingSourceDeclaration {
  readonly id: string;
  /** The settings that exist now in the process whose bus this is. */
  readonly load: () => Promise<(bus: DatabaseBus) => readonly RuntimeSetting[]>;
}

export const settingsRuntimeDeclarations = createExtensionPoint<RuntimeSettingSourceDeclaration>({
  id: 'settings.runtime-declarations',
  owner: 'settings',
  cardinality: 'many',
});

// A runtime setting's row in flotilla_setting is `runtime:<key>`. No module's key holds a colon (createSettingsStore
// refuses one), so a plugin's stored value can never be read as a built-in setting's, nor overwrite one.
const STORED_PREFIX = 'runtime:';

export const storedKeyOfRuntime = (key: string) => `${STORED_PREFIX}${key}`;

/** The stored keys of every runtime setting whose key starts with `prefix` (a purged plugin's `<id>.`). */
export const storedPrefixOfRuntime = (prefix: string) => `${STORED_PREFIX}${prefix}`;

const MAX_STRING = 4000; // as the plugin manifest allows for a default

/** The declaration the store validates a runtime setting's values with: its kind's rule, nothing more. */
export function runtimeSettingDeclaration(setting: RuntimeSetting): SettingDeclaration {
  const common = { key: setting.key, description: setting.description, appliesAt: 'runtime' as const };
  switch (setting.kind) {
    case 'integer':
      return {
        ...common,
        kind: 'integer',
        defaultValue: setting.defaultValue,
        rule: 'a whole number',
        isValid: (value) => Number.isSafeInteger(value),
      };
    case 'boolean':
      return {
        ...common,
        kind: 'boolean',
        defaultValue: setting.defaultValue,
        rule: 'true or false',
        isValid: (value) => typeof value === 'boolean',
      };
    case 'string':
      return {
        ...common,
        kind: 'string',
        defaultValue: setting.defaultValue,
        rule: `a text of at most ${String(MAX_STRING)} characters`,
        isValid: (value) => typeof value === 'string' && value.length <= MAX_STRING,
      };
  }
}
