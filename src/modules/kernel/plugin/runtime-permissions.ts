// The plugin.runtime-permissions point: permissions that exist only while something runs (a runtime plugin's
// declared permissions), beside the descriptors' fixed catalogue. While they exist a custom role may carry one, and
// whoever holds every catalogue permission of the tier a permission names holds it too (the tier's role, a role
// above it, or a custom role with the same powers). When their source stops, they are gone from the catalogue; a
// role that still carries one keeps the id, which grants nothing until it exists again.
import type { DatabaseBus } from '@/base/db/bus.ts';
import { BUILT_IN_ROLES, type BuiltInRole, type ModuleRegistry, type PermissionEntry } from './descriptor.ts';
import { createExtensionPoint } from './extension-point.ts';

export interface RuntimePermission {
  readonly id: string;
  readonly description: string;
  readonly includedIn: BuiltInRole;
  /** What declared it, e.g. the runtime plugin's id. */
  readonly source: string;
}

export interface RuntimePermissionSourceDeclaration {
  readonly id: string;
  /** The permissions that exist now in the process whose bus this is. */
  readonly load: () => Promise<(bus: DatabaseBus) => readonly RuntimePermission[]>;
}

export const runtimePermissions = createExtensionPoint<RuntimePermissionSourceDeclaration>({
  id: 'plugin.runtime-permissions',
  owner: 'plugin',
  cardinality: 'many',
});

/** A catalogue entry; a runtime one names its source and the module that contributed it. */
export type CatalogueEntry = PermissionEntry & { readonly source?: string };

/** The catalogue now: every module's permissions, then the runtime permissions of this process (enabled). */
export async function permissionCatalogueNow(registry: ModuleRegistry, bus: DatabaseBus): Promise<CatalogueEntry[]> {
  const entries: CatalogueEntry[] = registry.permissionCatalogue();
  const taken = new Set(entries.map((entry) => entry.id));
  for (const { moduleId, value } of registry.contributionsTo(runtimePermissions)) {
    for (const permission of (await value.load())(bus)) {
      // A module's permission cannot be shadowed (manifest validation refuses the ids; this is the last word).
      if (taken.has(permission.id)) continue;
      taken.add(permission.id);
      entries.push({ ...permission, module: moduleId, enabled: true });
    }
  }
  return entries;
}

/** The catalogue's permissions a holder of `tier` has (its own and every lower tier's), of enabled modules. */
function tierPermissions(catalogue: readonly CatalogueEntry[], tier: BuiltInRole): string[] {
  const rank = BUILT_IN_ROLES.indexOf(tier);
  return catalogue
    .filter((entry) => entry.enabled && entry.source === undefined)
    .filter((entry) => BUILT_IN_ROLES.indexOf(entry.includedIn) <= rank)
    .map((entry) => entry.id);
}

/** Whether `held` covers every (module) catalogue permission of `tier`. */
export function holdsTier(held: ReadonlySet<string>, catalogue: readonly CatalogueEntry[], tier: BuiltInRole): boolean {
  const needed = tierPermissions(catalogue, tier);
  return needed.length > 0 && needed.every((permission) => held.has(permission));
}

/**
 * What `held` amounts to with the runtime permissions: those a role carries, and those whose tier it covers. Pure, so
 * the gateway, the plugins' MCP tools and the roles' guards answer alike.
 */
export function withRuntimePermissions(
  held: ReadonlySet<string>,
  catalogue: readonly CatalogueEntry[],
): ReadonlySet<string> {
  const runtime = catalogue.filter((entry) => entry.source !== undefined);
  if (runtime.length === 0) return held;
  const all = new Set(held);
  for (const entry of runtime) if (holdsTier(held, catalogue, entry.includedIn)) all.add(entry.id);
  return all;
}
