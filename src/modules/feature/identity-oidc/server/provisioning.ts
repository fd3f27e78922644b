// Just-in-time accounts for external identities, keyed by (provider, subject): created at the first sign-in and
// refreshed at every one after (username, email, display name, and the groups that mappings turn into grants).
import { lockTransaction } from '@/base/advisory-lock.ts';
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import { usernameCandidates, type ExternalIdentity } from './external-identity.ts';

async function freeUsername(tx: Transaction, identity: ExternalIdentity, ownId: string | undefined): Promise<string> {
  const candidates = usernameCandidates(identity.username, identity.providerId);
  const taken = await tx.$queryRaw<{ name: string }[]>`
    SELECT lower(username) AS name FROM flotilla_user
     WHERE lower(username) = ANY(${candidates.map((name) => name.toLowerCase())}::text[])
       AND id IS DISTINCT FROM ${ownId ?? null}::uuid`;
  const takenNames = new Set(taken.map((row) => row.name));
  const free = candidates.find((name) => !takenNames.has(name.toLowerCase()));
  if (!free) throw new Error(`no free username for ${identity.providerId} account ${identity.username}`);
  return free;
}

/** The account's id; an existing account keeps its id and its disabled flag (a disabled account stays refused). */
export async function provisionExternalUser(prisma: PrismaClient, identity: ExternalIdentity): Promise<string> {
  return prisma.$transaction(async (tx) => {
    // One sign-in at a time per subject, so two first sign-ins cannot create two accounts. The pair is JSON, not
    // joined by NUL: PostgreSQL text refuses the NUL byte.
    await lockTransaction(tx, 'identity-oidc.provisioning', JSON.stringify([identity.providerId, identity.subject]));
    const existing = await tx.user.findFirst({
      where: { providerId: identity.providerId, externalSubject: identity.subject },
    });
    const username = await freeUsername(tx, identity, existing?.id);
    const profile = { username, email: identity.email, displayName: identity.displayName, updatedAt: new Date() };
    const id = existing?.id ?? randomUUID();
    if (existing) await tx.user.update({ where: { id }, data: profile });
    else
      await tx.user.create({
        data: { id, ...profile, providerId: identity.providerId, externalSubject: identity.subject },
      });
    const groups = [...identity.groups];
    await tx.identityUserGroups.upsert({
      where: { userId: id },
      create: { userId: id, groups },
      update: { groups, updatedAt: new Date() },
    });
    return id;
  });
}
