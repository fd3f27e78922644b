// The names of the roles that hold a permission, for screens that say who may do something (who sees values in clear);
// and the clean-up of permissions that are gone for good.
import type { PrismaClient, Transaction } from '@/base/db/database.ts';

export async function rolesHolding(prisma: PrismaClient, permission: string): Promise<string[]> {
  const roles = await prisma.role.findMany({
    where: { permissions: { has: permission } },
    select: { name: true },
    orderBy: { name: 'asc' },
  });
  return roles.map((role) => role.name);
}

/**
 * Takes every permission whose id starts with `prefix` out of the custom roles that carry one (a purged plugin's
 * `<id>:` permissions, which will not come back), in the caller's transaction; answers the roles changed.
 */
export async function forgetRolePermissions(tx: Transaction, prefix: string): Promise<string[]> {
  const roles = await tx.role.findMany({ where: { builtIn: false }, orderBy: { name: 'asc' } });
  const changed: string[] = [];
  for (const role of roles) {
    const kept = role.permissions.filter((permission) => !permission.startsWith(prefix));
    if (kept.length === role.permissions.length) continue;
    await tx.role.update({ where: { id: role.id }, data: { permissions: kept, updatedAt: new Date() } });
    changed.push(role.name);
  }
  return changed;
}
