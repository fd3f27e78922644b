// The two rules a new token must pass: its owner holds fewer than `apitokens.max-per-user` tokens, and none of the
// same name. Checked once before the audit (a plain refusal leaves no row), and again inside the creating
// transaction under a per-owner advisory lock, so parallel creations are counted one after another: 80 at once
// against a cap of 50 make exactly 50. Within one web process they also queue in memory first (`oneAtATimeFor`):
// waiting on the lock inside a transaction would hold a pooled connection each and starve the pool.
import { lockTransaction } from '@/base/advisory-lock.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';

type Tokens = Pick<PrismaClient, 'apiToken'>;

export async function refuseBeyondLimits(db: Tokens, userId: string, name: string, cap: number): Promise<void> {
  if ((await db.apiToken.count({ where: { userId } })) >= cap) {
    throw new ProblemError({
      type: 'token-limit',
      title: 'Too many tokens',
      status: 409,
      detail: `You hold ${cap} API tokens, the most one user may (apitokens.max-per-user): revoke one first.`,
      limit: cap,
    });
  }
  if (await db.apiToken.findFirst({ where: { userId, name } })) {
    throw new ProblemError({
      type: 'token-name-taken',
      title: 'Token name taken',
      status: 409,
      detail: `You already have a token named "${name}".`,
      errors: [{ field: 'name', message: 'is already used by another of your tokens' }],
    });
  }
}

/** The same check inside the creating transaction, after taking the owner's lock (held until it ends). */
export async function refuseBeyondLimitsLocked(
  tx: Tokens & Parameters<typeof lockTransaction>[0],
  userId: string,
  name: string,
  cap: number,
): Promise<void> {
  await lockTransaction(tx, 'apitokens.owner', userId);
  await refuseBeyondLimits(tx, userId, name, cap);
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier call for the same owner in this process has ended. */
export function oneAtATimeFor<T>(userId: string, work: () => Promise<T>): Promise<T> {
  const result = (queues.get(userId) ?? Promise.resolve()).then(work);
  const settled = result.catch(() => undefined);
  queues.set(userId, settled);
  void settled.then(() => {
    if (queues.get(userId) === settled) queues.delete(userId);
  });
  return result;
}
