// No one hands out, or takes over, more than they hold. An administrator holds every permission but the
// installer's; without this guard they could grant themselves `installer`, put installer permissions into a custom
// role they hold, or reset an installer's password and sign in as them. Compared with what the caller holds
// everywhere (global grants), since these are installation-wide changes. A running plugin's permission is held by
// tier or by a role that carries it (plugin.runtime-permissions); an id that names no permission now (a disabled
// plugin's, kept in a role) grants nothing, so it is beyond no one.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { permissionCatalogueNow, withRuntimePermissions, type ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { loadEffectiveGrants } from '../effective-grants.ts';

/** What the caller holds everywhere, and which permissions exist now. */
export interface CallerPowers {
  readonly held: ReadonlySet<string>;
  readonly known: ReadonlySet<string>;
}

export async function callerPowers(ctx: {
  readonly globalPermissions: () => Promise<ReadonlySet<string>>;
  readonly runtime: { readonly registry: ModuleRegistry; readonly bus: DatabaseBus };
}): Promise<CallerPowers> {
  const catalogue = await permissionCatalogueNow(ctx.runtime.registry, ctx.runtime.bus);
  return {
    held: withRuntimePermissions(await ctx.globalPermissions(), catalogue),
    known: new Set(catalogue.map((entry) => entry.id)),
  };
}

export function requireHeldByCaller(caller: CallerPowers, permissions: Iterable<string>, what: string): void {
  const beyond = [...new Set(permissions)]
    .filter((permission) => caller.known.has(permission) && !caller.held.has(permission))
    .sort();
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
  caller: CallerPowers,
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
  caller: CallerPowers,
  userId: string,
  what: string,
): Promise<void> {
  requireHeldByCaller(caller, await permissionsOfUser(prisma, userId), what);
}
