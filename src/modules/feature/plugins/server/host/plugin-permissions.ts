// The running plugins' declared permissions, for plugin.runtime-permissions: while a plugin runs in this web process
// its permissions are in the catalogue (the manifest, the role editor) and a custom role may carry one alone; they
// go with it. Who holds one by tier is the kernel's rule (withRuntimePermissions).
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { RuntimePermission } from '@/modules/kernel/plugin/index.ts';
import { pluginsOf } from '../process-start.ts';

export function runningPluginPermissions(bus: DatabaseBus): readonly RuntimePermission[] {
  return (pluginsOf(bus)?.manager.list() ?? []).flatMap((plugin) =>
    plugin.manifest.permissions.map((permission) => ({
      id: permission.id,
      description: permission.description,
      includedIn: permission.includedIn ?? 'admin', // as the gateway reads a permission that names no tier
      source: plugin.id,
    })),
  );
}
