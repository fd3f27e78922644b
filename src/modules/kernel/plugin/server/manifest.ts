// The manifest describes what is installed and what is on; it never grants anything.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { ModuleRegistry } from '../descriptor.ts';
import { permissionCatalogueNow } from '../runtime-permissions.ts';
import { canBeDisabled } from '../toggles.ts';
import type { Manifest } from './manifest.schema.ts';

/** What is installed and on, with the permission catalogue as it is now (running plugins' permissions too). */
export async function buildManifest(registry: ModuleRegistry, bus: DatabaseBus): Promise<Manifest> {
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
    permissions: await permissionCatalogueNow(registry, bus),
  };
}
