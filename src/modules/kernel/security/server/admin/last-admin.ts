// The last-administrator rule: the installation must always keep someone who can administer it. An administrator
// is an enabled user with a GLOBAL grant of the built-in `admin` or `installer` role (their own grant: a group
// grant depends on what a provider says at the next sign-in, so it cannot be counted on). Changes that could
// remove one (delete or disable a user, delete a grant) take one lock, so two such changes cannot each leave the
// other to be "the last" and together leave none.
import { lockTransaction } from '@/base/advisory-lock.ts';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';

export interface AdministratorLoss {
  /** Count administrators as if this user were gone or disabled. */
  readonly withoutUserId?: string;
  /** Count administrators as if this grant were gone. */
  readonly withoutGrantId?: string;
}

async function countAdministrators(tx: Transaction, loss: AdministratorLoss = {}): Promise<number> {
  const rows = await tx.$queryRaw<{ count: number }[]>`
    SELECT count(DISTINCT u.id)::int AS count
    FROM flotilla_user u
    JOIN flotilla_grant g ON g.user_id = u.id AND g.principal = 'USER' AND g.scope_kind = 'GLOBAL'
    JOIN flotilla_role r ON r.id = g.role_id AND r.built_in AND r.name IN ('admin', 'installer')
    WHERE NOT u.disabled
      AND u.id IS DISTINCT FROM ${loss.withoutUserId ?? null}::uuid
      AND g.id IS DISTINCT FROM ${loss.withoutGrantId ?? null}::uuid`;
  return rows[0]?.count ?? 0;
}

/** The one administrator, when there is exactly one: the screens do not offer what the rule would refuse. */
export async function soleAdministratorId(db: PrismaClient | Transaction): Promise<string | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT u.id::text AS id
    FROM flotilla_user u
    JOIN flotilla_grant g ON g.user_id = u.id AND g.principal = 'USER' AND g.scope_kind = 'GLOBAL'
    JOIN flotilla_role r ON r.id = g.role_id AND r.built_in AND r.name IN ('admin', 'installer')
    WHERE NOT u.disabled
    LIMIT 2`;
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}

/**
 * Refuses (409 `last-admin`) a change that would take the installation from some administrators to none. Call it
 * inside the change's transaction, before the change; a dry run asks the same question and is refused alike.
 */
export async function ensureAdministratorRemains(tx: Transaction, loss: AdministratorLoss, change: string) {
  await lockTransaction(tx, 'security.administrators');
  const before = await countAdministrators(tx);
  if (before === 0 || (await countAdministrators(tx, loss)) > 0) return;
  throw new ProblemError({
    type: 'last-admin',
    title: 'Last administrator',
    status: 409,
    detail:
      `${change} would leave no administrator. An administrator is an enabled user with a global grant of the ` +
      'admin or installer role; give someone else one first.',
  });
}
