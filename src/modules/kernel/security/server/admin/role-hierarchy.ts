// No one hands out, or takes over, more than they hold. An administrator holds every permission but the
// installer's; without this guard they could grant themselves `installer`, put installer permissions into a custom
// role they hold, or reset an installer's password and sign in as them. Compared with what the caller holds
// everywhere (global grants), since these are installation-wide changes.
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { loadEffectiveGrants } from '../effective-grants.ts';

export function requireHeldByCaller(caller: ReadonlySet<string>, permissions: Iterable<string>, what: string): void {
  const beyond = [...new Set(permissions)].filter((permission) => !caller.has(permission)).sort();
  if (beyond.length === 0) return;
  throw new ProblemError({
    type: 'beyond-own-permissions',
    title: 'Beyond your own permissions',
    status: 403,
    detail: `${what} needs permissions you do not hold everywhere: ${beyond.join(', ')}.`,
    permissions: beyond,
  });
}

/** Every permission a user holds anywhere, for comparing an account with the one acting on it. */
async function permissionsOfUser(prisma: PrismaClient, userId: string): Promise<Set<string>> {
  return new Set((await loadEffectiveGrants(prisma, userId)).flatMap((grant) => grant.permissions));
}

export async function requireRoleHeldByCaller(
  prisma: PrismaClient,
  caller: ReadonlySet<string>,
  roleIds: readonly string[],
  what: string,
): Promise<void> {
  const roles = await prisma.role.findMany({ where: { id: { in: [...new Set(roleIds)] } } });
  requireHeldByCaller(
    caller,
    roles.flatMap((role) => role.permissions),
    what,
  );
}

export async function requireUserHeldByCaller(
  prisma: PrismaClient,
  caller: ReadonlySet<string>,
  userId: string,
  what: string,
): Promise<void> {
  requireHeldByCaller(caller, await permissionsOfUser(prisma, userId), what);
}
