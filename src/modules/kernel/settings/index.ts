// The settings module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export type { SettingsStore } from './server/settings-store.ts';
export {
  createSettingsStore,
  loadAndFollowSettings,
  readStartupProperties,
  runtimeSettingValue,
} from './server/settings-sync.ts';
export { updateSetting } from './server/settings.service.ts';
export type { RuntimeSetting } from './server/runtime-declarations.ts';
export { announceForgottenSettings, forgetRuntimeSettings } from './server/runtime-settings-purge.ts';
