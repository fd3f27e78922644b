// The built-in roles follow the permission catalogue: each permission names the lowest built-in role holding it,
// and every role holds the permissions of the roles below it.
import { BUILT_IN_ROLES, type BuiltInRole, type PermissionDeclaration } from '@/modules/kernel/plugin/index.ts';

export interface RoleDefinition {
  readonly name: BuiltInRole;
  readonly description: string;
  readonly permissions: readonly string[];
}

const DESCRIPTIONS: Record<BuiltInRole, string> = {
  viewer: 'Sees clusters, queues, settings and jobs; changes nothing.',
  operator: 'Everything a viewer may, plus day-to-day operations and the audit log.',
  admin: 'Everything an operator may, plus settings, users, roles and grants.',
  installer: 'Everything an admin may, plus installing and removing plugins.',
};

export function builtInRoles(catalogue: readonly PermissionDeclaration[]): RoleDefinition[] {
  return BUILT_IN_ROLES.map((name, rank) => ({
    name,
    description: DESCRIPTIONS[name],
    permissions: catalogue
      .filter((permission) => BUILT_IN_ROLES.indexOf(permission.includedIn) <= rank)
      .map((permission) => permission.id)
      .sort(),
  }));
}
