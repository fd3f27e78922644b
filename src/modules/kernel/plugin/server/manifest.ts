// The manifest describes what is installed and what is on; it never grants anything.
import type { ModuleRegistry } from '../descriptor.ts';
import { canBeDisabled } from '../toggles.ts';
import type { Manifest } from './manifest.schema.ts';

export function buildManifest(registry: ModuleRegistry): Manifest {
  return {
    modules: registry.modules.map(({ descriptor, enabled, enablingProperty, toggleSource }) => ({
      id: descriptor.id,
      title: descriptor.title,
      layer: descriptor.layer,
      description: descriptor.description,
      enabled,
      canBeDisabled: canBeDisabled(descriptor),
      enablingProperty,
      toggleSource,
      requires: [...descriptor.requires],
      permissions: descriptor.permissions.map((permission) => permission.id),
      settings: descriptor.settings.map((setting) => setting.key),
      topics: [...descriptor.topics],
      mcp: descriptor.mcp.map((entry) => ({ ...entry })),
      apiPrefixes: [...descriptor.apiPrefixes],
    })),
    permissions: registry.permissionCatalogue(),
  };
}
