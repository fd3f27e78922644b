// Loads what a user may do: their own USER grants, plus — for an external account — the grants its provider's
// group mappings give for the groups it held at its last sign-in, and the provider's default role (GLOBAL).
// The GROUP columns of flotilla_grant are not used: group grants live in identity_group_mapping (docs/security.md).
import type { PrismaClient } from '@/base/db/database.ts';
import type { EffectiveGrant } from '@/modules/kernel/access/index.ts';
import { grantsFromGroups, scopeOf, withPermissions } from './group-mappings.ts';

async function groupGrants(prisma: PrismaClient, userId: string) {
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { providerId: true } });
  if (!user || user.providerId === 'local') return [];
  const [membership, defaultRole] = await Promise.all([
    prisma.identityUserGroups.findUnique({ where: { userId } }),
    prisma.identityProviderDefaultRole.findUnique({ where: { providerId: user.providerId } }),
  ]);
  const groups = membership?.groups ?? [];
  const mappings =
    groups.length === 0
      ? []
      : await prisma.identityGroupMapping.findMany({
          where: { providerId: user.providerId, groupName: { in: groups } },
        });
  return grantsFromGroups(
    groups,
    mappings.map((mapping) => ({
      groupName: mapping.groupName,
      roleId: mapping.roleId,
      scope: scopeOf(mapping.scopeKind, mapping.scopeId),
    })),
    defaultRole?.roleId ?? null,
  );
}

export async function loadEffectiveGrants(prisma: PrismaClient, userId: string): Promise<EffectiveGrant[]> {
  const [own, fromGroups] = await Promise.all([
    prisma.grant.findMany({ where: { principal: 'USER', userId } }),
    groupGrants(prisma, userId),
  ]);
  const grants = [
    ...own.map((grant) => ({ roleId: grant.roleId, scope: scopeOf(grant.scopeKind, grant.scopeId) })),
    ...fromGroups,
  ];
  const roles = await prisma.role.findMany({
    where: { id: { in: [...new Set(grants.map((grant) => grant.roleId))] } },
  });
  return withPermissions(grants, new Map(roles.map((role) => [role.id, role.permissions])));
}
