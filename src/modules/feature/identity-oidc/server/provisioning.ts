// Just-in-time accounts for external identities, keyed by (provider, subject): created at the first sign-in and
// refreshed at every one after (username, email, display name, and the groups that mappings turn into grants). The
// rows are security's: this module holds the lock and chooses the usernames, security writes the account.
import { lockTransaction } from '@/base/advisory-lock.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { upsertExternalAccount } from '@/modules/kernel/security/index.ts';
import { usernameCandidates, type ExternalIdentity } from './external-identity.ts';

/** The account's id; an existing account keeps its id and its disabled flag (a disabled account stays refused). */
export async function provisionExternalUser(prisma: PrismaClient, identity: ExternalIdentity): Promise<string> {
  return prisma.$transaction(async (tx) => {
    // One sign-in at a time per subject, so two first sign-ins cannot create two accounts. The pair is JSON, not
    // joined by NUL: PostgreSQL text refuses the NUL byte.
    await lockTransaction(tx, 'identity-oidc.provisioning', JSON.stringify([identity.providerId, identity.subject]));
    return upsertExternalAccount(tx, {
      providerId: identity.providerId,
      subject: identity.subject,
      usernameCandidates: usernameCandidates(identity.username, identity.providerId),
      email: identity.email,
      displayName: identity.displayName,
      groups: identity.groups,
    });
  });
}
