// The accounts' rows as the identity providers need them: security owns `flotilla_user` and `identity_user_groups`
// (ADR 8: a module's data only through its entries), the providers decide who signs in.
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';

/** A local account's stored credential, for the `local` provider; undefined when no local account has the name. */
export async function localAccountCredential(
  prisma: PrismaClient,
  username: string,
): Promise<{ id: string; passwordHash: string | null; disabled: boolean } | undefined> {
  const rows = await prisma.$queryRaw<{ id: string; password_hash: string | null; disabled: boolean }[]>`
    SELECT id, password_hash, disabled FROM flotilla_user
     WHERE provider_id = 'local' AND lower(username) = lower(${username})`;
  const row = rows[0];
  return row && { id: row.id, passwordHash: row.password_hash, disabled: row.disabled };
}

/** An external account as its provider's sign-in presents it, keyed by (providerId, subject). */
interface ExternalAccount {
  readonly providerId: string;
  readonly subject: string;
  /** The usernames to try in order; the first that no other account holds (case-insensitively) is taken. */
  readonly usernameCandidates: readonly string[];
  readonly email: string | null;
  readonly displayName: string | null;
  readonly groups: readonly string[];
}

async function freeUsername(tx: Transaction, account: ExternalAccount, ownId: string | undefined): Promise<string> {
  const candidates = account.usernameCandidates;
  const taken = await tx.$queryRaw<{ name: string }[]>`
    SELECT lower(username) AS name FROM flotilla_user
     WHERE lower(username) = ANY(${candidates.map((name) => name.toLowerCase())}::text[])
       AND id IS DISTINCT FROM ${ownId ?? null}::uuid`;
  const takenNames = new Set(taken.map((row) => row.name));
  const free = candidates.find((name) => !takenNames.has(name.toLowerCase()));
  if (!free) throw new Error(`no free username for ${account.providerId} account ${candidates[0] ?? account.subject}`);
  return free;
}

/** Within the caller's transaction (which holds the provider's lock on the subject): creates the account at its first
 * sign-in or refreshes its username, email, display name and groups; answers its id. An existing account keeps its id
 * and its disabled flag (a disabled account stays refused). */
export async function upsertExternalAccount(tx: Transaction, account: ExternalAccount): Promise<string> {
  const existing = await tx.user.findFirst({
    where: { providerId: account.providerId, externalSubject: account.subject },
  });
  const username = await freeUsername(tx, account, existing?.id);
  const profile = { username, email: account.email, displayName: account.displayName, updatedAt: new Date() };
  const id = existing?.id ?? randomUUID();
  if (existing) await tx.user.update({ where: { id }, data: profile });
  else
    await tx.user.create({
      data: { id, ...profile, providerId: account.providerId, externalSubject: account.subject },
    });
  const groups = [...account.groups];
  await tx.identityUserGroups.upsert({
    where: { userId: id },
    create: { userId: id, groups },
    update: { groups, updatedAt: new Date() },
  });
  return id;
}
