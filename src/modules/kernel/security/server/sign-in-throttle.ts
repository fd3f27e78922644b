// The sign-in throttle, kept in the database so every instance counts the same failures. Keys are per username
// and per source address; thresholds and the window are settings (docs/security.md).
import type { PrismaClient } from '@/server/db/database.ts';

export interface ThrottleLimits {
  readonly userFailures: number;
  readonly sourceFailures: number;
  readonly windowMs: number;
}

/** An attempt without a username (a redirect sign-in that failed before the provider named anyone) counts by source. */
export function throttleKeys(username: string, sourceIp: string | null): { key: string; limit: 'user' | 'source' }[] {
  const keys: { key: string; limit: 'user' | 'source' }[] = [];
  if (username.trim()) keys.push({ key: `user:${username.trim().toLowerCase()}`, limit: 'user' });
  if (sourceIp) keys.push({ key: `source:${sourceIp}`, limit: 'source' });
  return keys;
}

/** When any key is locked, the time it unlocks; otherwise undefined. */
export async function lockedUntil(
  prisma: PrismaClient,
  keys: readonly string[],
  now = new Date(),
): Promise<Date | undefined> {
  const rows = await prisma.signInThrottle.findMany({ where: { key: { in: [...keys] }, lockedUntil: { gt: now } } });
  return rows.reduce<Date | undefined>(
    (latest, row) => (row.lockedUntil && (!latest || row.lockedUntil > latest) ? row.lockedUntil : latest),
    undefined,
  );
}

/** Counts a failure on every key in one statement each; a key reaching its limit is locked for one window. */
export async function recordFailure(
  prisma: PrismaClient,
  keys: readonly { key: string; limit: 'user' | 'source' }[],
  limits: ThrottleLimits,
  now = new Date(),
): Promise<void> {
  const windowStart = new Date(now.getTime() - limits.windowMs);
  const unlockAt = new Date(now.getTime() + limits.windowMs);
  for (const { key, limit } of keys) {
    const threshold = limit === 'user' ? limits.userFailures : limits.sourceFailures;
    await prisma.$executeRaw`
      INSERT INTO sign_in_throttle (key, failures, window_starts_at, locked_until)
      VALUES (${key}, 1, ${now}, CASE WHEN 1 >= ${threshold} THEN ${unlockAt}::timestamptz END)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN sign_in_throttle.window_starts_at < ${windowStart} THEN 1 ELSE sign_in_throttle.failures + 1 END,
        window_starts_at = CASE WHEN sign_in_throttle.window_starts_at < ${windowStart} THEN ${now} ELSE sign_in_throttle.window_starts_at END,
        locked_until = CASE
          WHEN (CASE WHEN sign_in_throttle.window_starts_at < ${windowStart} THEN 1 ELSE sign_in_throttle.failures + 1 END) >= ${threshold}
          THEN ${unlockAt}::timestamptz ELSE sign_in_throttle.locked_until END`;
  }
}

/** A successful sign-in forgives the username's failures (not the source's: one good account must not unlock a spray). */
export async function forgiveUser(prisma: PrismaClient, username: string): Promise<void> {
  await prisma.signInThrottle.deleteMany({ where: { key: `user:${username.trim().toLowerCase()}` } });
}
