// Keeps the built-in roles in step with the permission catalogue at every start, and creates the first admin
// when there are no users. Runs in the supervisor after migrations, under an advisory lock (instances may start
// together).
import { randomUUID } from 'node:crypto';
import { lockTransaction } from '@/base/advisory-lock.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import type { PermissionDeclaration } from '@/modules/kernel/plugin/index.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { newPasswordSchema, passwordWeakness } from './password-policy.ts';
import { builtInRoles } from './roles.ts';

export async function syncBuiltInRoles(
  prisma: PrismaClient,
  catalogue: readonly PermissionDeclaration[],
): Promise<void> {
  for (const role of builtInRoles(catalogue)) {
    const values = {
      description: role.description,
      permissions: [...role.permissions],
      builtIn: true,
      updatedAt: new Date(),
    };
    await prisma.role.upsert({
      where: { name: role.name },
      create: { id: randomUUID(), name: role.name, ...values },
      update: values,
    });
  }
}

export interface FirstAdmin {
  readonly username: string;
  /** Present only when Flotilla made the password up: it is shown once and must be changed at first sign-in. */
  readonly generatedPassword?: string;
}

export async function ensureFirstAdmin(
  prisma: PrismaClient,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<FirstAdmin | undefined> {
  // Checked before the transaction: the strength estimate is CPU work that must not hold it open.
  const username = environment.FLOTILLA_ADMIN_USERNAME?.trim() || 'admin';
  const given = environment.FLOTILLA_ADMIN_PASSWORD;
  if (given && (await prisma.user.count()) === 0) await refuseWeakAdminPassword(given, username);
  // Hashed before it too: on a loaded machine the hash alone outlasted the transaction's 5 s (a clean-clone run saw 7.6 s).
  const password = given || generatePassword();
  const passwordHash = await hashPassword(password);
  return prisma.$transaction(async (tx) => {
    await lockTransaction(tx, 'security.setup');
    if ((await tx.user.count()) > 0) return undefined;
    // The one who installed Flotilla holds the top tier; admins made later cannot rise above them (role-hierarchy.ts).
    const installer = await tx.role.findUniqueOrThrow({ where: { name: 'installer' } });
    const userId = randomUUID();
    await tx.user.create({
      data: {
        id: userId,
        username,
        providerId: 'local',
        passwordHash,
        mustChangePassword: !given,
      },
    });
    await tx.grant.create({
      data: {
        id: randomUUID(),
        roleId: installer.id,
        principal: 'USER',
        userId,
        scopeKind: 'GLOBAL',
        createdBy: 'system',
      },
    });
    return given ? { username } : { username, generatedPassword: password };
  });
}

/** A weak FLOTILLA_ADMIN_PASSWORD stops start-up, saying why (never the password itself). */
async function refuseWeakAdminPassword(password: string, username: string): Promise<void> {
  const weakness =
    newPasswordSchema.safeParse(password).error?.issues[0]?.message ?? (await passwordWeakness(password, username));
  if (weakness)
    throw new Error(
      `FLOTILLA_ADMIN_PASSWORD ${weakness}. Choose a stronger one, or leave it unset for a generated one.`,
    );
}
