// Who holds a plugin's permission. A plugin's permissions are not written into the roles (a plugin comes and goes at
// runtime, and the roles are the catalogue's, kept in step at every start): each names the built-in tier that holds
// it, and whoever holds every catalogue permission of that tier at the place asked about holds it too — the tier's
// role, a role above it, or a custom role carrying the same powers. Pure, so the rule is tested on its own.
import { BUILT_IN_ROLES, type BuiltInRole } from '@/modules/kernel/plugin/index.ts';

export interface CataloguePermission {
  readonly id: string;
  readonly includedIn: BuiltInRole;
}

/** The catalogue's permissions a holder of `tier` has (its own and every tier's below it). */
function tierPermissions(catalogue: readonly CataloguePermission[], tier: BuiltInRole): string[] {
  const rank = BUILT_IN_ROLES.indexOf(tier);
  return catalogue
    .filter((permission) => BUILT_IN_ROLES.indexOf(permission.includedIn) <= rank)
    .map((permission) => permission.id);
}

export function holdsTier(
  held: ReadonlySet<string>,
  catalogue: readonly CataloguePermission[],
  tier: BuiltInRole,
): boolean {
  const needed = tierPermissions(catalogue, tier);
  return needed.length > 0 && needed.every((permission) => held.has(permission));
}
