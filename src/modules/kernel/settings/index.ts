// The settings module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export type { SettingsStore } from './server/settings-store.ts';
export { createSettingsStore, loadAndFollowSettings, readStartupProperties } from './server/settings-sync.ts';
export { updateSetting } from './server/settings.service.ts';
