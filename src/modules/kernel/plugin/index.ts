// The plugin module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { BUILT_IN_ROLES, defineModule } from './descriptor.ts';
export type {
  BuiltInRole,
  HealthComponent,
  HealthContext,
  HealthStatus,
  InstalledModule,
  JobContext,
  JobDeclaration,
  JobResult,
  ModuleDescriptor,
  ModuleRegistry,
  PermissionDeclaration,
  ProcessStartContext,
  RunningWorkerService,
  WorkerServiceContext,
  WorkerServiceDeclaration,
} from './descriptor.ts';
export { contribution, createExtensionPoint } from './extension-point.ts';
export { StartupError, resolveModules } from './registry.ts';
export { buildManifest } from './server/manifest.ts';
export { holdsTier, permissionCatalogueNow, withRuntimePermissions } from './runtime-permissions.ts';
export type { RuntimePermission } from './runtime-permissions.ts';
export { manifestSchema } from './server/manifest.schema.ts';
export type { Manifest } from './server/manifest.schema.ts';
export { booleanSetting, durationSetting, integerSetting, parseDuration, stringSetting } from './setting-types.ts';
export type { SettingDeclaration, SettingsReader, SettingValue } from './setting-types.ts';
export { environmentVariableFor } from './toggles.ts';
