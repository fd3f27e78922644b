// Loads what a user may do: their own grants and, later, their groups' grants, each with its role's permissions.
import type { PrismaClient } from '@/server/db/database.ts';
import type { EffectiveGrant, Scope } from './grants.ts';

function scopeOf(kind: string, id: string | null): Scope {
  if ((kind === 'ENVIRONMENT' || kind === 'CLUSTER') && id) return { kind, id };
  return { kind: 'GLOBAL' };
}

export async function loadEffectiveGrants(prisma: PrismaClient, userId: string): Promise<EffectiveGrant[]> {
  const grants = await prisma.grant.findMany({ where: { principal: 'USER', userId } });
  const roles = await prisma.role.findMany({
    where: { id: { in: [...new Set(grants.map((grant) => grant.roleId))] } },
  });
  const permissionsOf = new Map(roles.map((role) => [role.id, role.permissions]));
  return grants.map((grant) => ({
    scope: scopeOf(grant.scopeKind, grant.scopeId),
    permissions: permissionsOf.get(grant.roleId) ?? [],
  }));
}
