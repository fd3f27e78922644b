// An external provider's groups → roles: each mapping gives its role at its scope to every account of that
// provider holding the group (as of the account's last sign-in); the provider's default role is given globally to
// every account of the provider. Pure, so the rule is tested on its own.
import type { EffectiveGrant, Scope } from '@/modules/kernel/access/index.ts';

export interface GroupMappingRule {
  readonly groupName: string;
  readonly roleId: string;
  readonly scope: Scope;
}

/** Role grants an external account holds through its groups and its provider's default role. */
export function grantsFromGroups(
  groups: readonly string[],
  mappings: readonly GroupMappingRule[],
  defaultRoleId: string | null,
): { roleId: string; scope: Scope }[] {
  const held = new Set(groups);
  const mapped = mappings
    .filter((mapping) => held.has(mapping.groupName))
    .map(({ roleId, scope }) => ({ roleId, scope }));
  return defaultRoleId ? [{ roleId: defaultRoleId, scope: { kind: 'GLOBAL' } }, ...mapped] : mapped;
}

export function scopeOf(kind: string, id: string | null): Scope {
  if ((kind === 'ENVIRONMENT' || kind === 'CLUSTER') && id) return { kind, id };
  return { kind: 'GLOBAL' };
}

/** Attaches each role's permissions; a role that no longer exists gives nothing. */
export function withPermissions(
  grants: readonly { roleId: string; scope: Scope }[],
  permissionsOf: ReadonlyMap<string, readonly string[]>,
): EffectiveGrant[] {
  return grants.map((grant) => ({ scope: grant.scope, permissions: permissionsOf.get(grant.roleId) ?? [] }));
}
