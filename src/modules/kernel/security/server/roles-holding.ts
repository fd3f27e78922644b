// The names of the roles that hold a permission, for screens that say who may do something (who sees values in clear).
import type { PrismaClient } from '@/base/db/database.ts';

export async function rolesHolding(prisma: PrismaClient, permission: string): Promise<string[]> {
  const roles = await prisma.role.findMany({
    where: { permissions: { has: permission } },
    select: { name: true },
    orderBy: { name: 'asc' },
  });
  return roles.map((role) => role.name);
}
