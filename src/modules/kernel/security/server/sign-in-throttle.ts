// The sign-in throttle, kept in the database so every instance counts the same attempts. Keys per attempt: the
// (username, source) pair slows down after a few failures and then locks; the username alone locks after many
// failures, but only for addresses the user has not signed in from (a distributed guess comes from unfamiliar
// addresses, and must not lock the owner out of their own); the source alone is only ever slowed down, never
// locked, so one address guessing cannot lock out the other people behind it. A password attempt is reserved
// (counted as a failure) in one statement per key before the password is verified, so parallel or batched attempts
// cannot all slip under a limit; a success then gives its reservation back. Limits and window are settings
// (docs/security.md).
import { Prisma } from '@/generated/prisma/client.ts';
import type { PrismaClient } from '@/base/db/database.ts';

export interface ThrottleLimits {
  /** Failures of one username from one source before that pair is locked. */
  readonly pairFailures: number;
  /** Failures of one username from any source before the username is locked (an admin can unlock it). */
  readonly userFailures: number;
  /** Failures from one source before each further attempt from it must wait, longer each time. */
  readonly sourceFailures: number;
  /** The window failures count in, and how long a lock lasts. */
  readonly windowMs: number;
}

/** `bearer`: unknown bearer tokens from one address, slowed down like a sign-in spray (never locked). */
type ThrottleKind = 'pair' | 'user' | 'source' | 'bearer';

export interface ThrottleKey {
  readonly key: string;
  readonly kind: ThrottleKind;
}

/** Failures a key may have before waiting starts, and the count that locks it (undefined: never locked). */
function rulesOf(kind: ThrottleKind, limits: ThrottleLimits): { free: number; lockAt: number | undefined } {
  if (kind === 'pair') return { free: Math.min(2, limits.pairFailures), lockAt: limits.pairFailures };
  if (kind === 'user') return { free: limits.userFailures, lockAt: limits.userFailures };
  return { free: limits.sourceFailures, lockAt: undefined }; // source and bearer: slowed, never locked
}

const MAX_DELAY_MS = 60_000;

/** The wait before the next attempt after `failures` failures: none while free, then 1 s doubling to a minute. */
function delayAfter(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(1_000 * 2 ** Math.min(failures - free - 1, 16), MAX_DELAY_MS);
}

/** The username as the throttle keys it. */
const throttleName = (username: string) => username.trim().toLowerCase();

/**
 * An attempt without a username (a redirect sign-in that failed before the provider named anyone) counts by
 * source. From a `familiar` address (see `isFamiliarAddress`) the username-wide key is left out.
 */
export function throttleKeys(username: string, sourceIp: string | null, familiar = false): ThrottleKey[] {
  const user = throttleName(username);
  const keys: ThrottleKey[] = [];
  if (user && !familiar) keys.push({ key: `user:${user}`, kind: 'user' });
  if (user && sourceIp) keys.push({ key: `pair:${user}|${sourceIp}`, kind: 'pair' });
  if (sourceIp) keys.push({ key: `source:${sourceIp}`, kind: 'source' });
  // Always in the same order, so two transactions taking the same rows never wait on each other in a circle.
  return keys.sort((a, b) => a.key.localeCompare(b.key));
}

export interface Refusal {
  /** When the earliest attempt may be made again. */
  readonly until: Date;
  /** The keys that refused, e.g. `pair`: a lock or a wait. */
  readonly kinds: readonly ThrottleKind[];
  /** True for the first refusal since the last admitted attempt: the one worth an audit row. */
  readonly first: boolean;
}

/** When any key is locked or waiting, when it opens again; counts the refusal on the refusing keys. */
export async function refusalOf(
  prisma: PrismaClient,
  keys: readonly ThrottleKey[],
  now = new Date(),
): Promise<Refusal | undefined> {
  const rows = await prisma.$queryRaw<{ key: string; until: Date; refused: number }[]>`
    UPDATE sign_in_throttle SET refused = refused + 1
     WHERE key = ANY(${keys.map((entry) => entry.key)}::text[])
       AND (locked_until > ${now} OR next_attempt_at > ${now})
    RETURNING key, GREATEST(coalesce(locked_until, ${now}), coalesce(next_attempt_at, ${now})) AS until, refused`;
  if (rows.length === 0) return undefined;
  const kindOf = new Map(keys.map((entry) => [entry.key, entry.kind]));
  return {
    until: new Date(Math.max(...rows.map((row) => row.until.getTime()))),
    kinds: rows.map((row) => kindOf.get(row.key) ?? 'source'),
    first: rows.some((row) => row.refused === 1),
  };
}

/**
 * Counts one failure on every key, in one transaction, and only if no key is locked or waiting: the reservation
 * a password attempt makes before its password is verified. Answers false (nothing counted) when refused.
 */
export async function reserveAttempt(
  prisma: PrismaClient,
  keys: readonly ThrottleKey[],
  limits: ThrottleLimits,
  now = new Date(),
): Promise<boolean> {
  try {
    await prisma.$transaction(async (tx) => {
      for (const entry of keys) {
        if (!(await countFailure(tx, entry, limits, now, true))) throw new Refused();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof Refused) return false;
    throw error;
  }
}

class Refused extends Error {}

/** Counts a failure that was not reserved (a redirect sign-in failing at the provider's callback). */
export async function recordFailure(
  prisma: PrismaClient,
  keys: readonly ThrottleKey[],
  limits: ThrottleLimits,
  now = new Date(),
): Promise<void> {
  for (const entry of keys) await countFailure(prisma, entry, limits, now, false);
}

type Sql = Pick<PrismaClient, '$queryRaw'>;

/**
 * One upsert per key: a failure outside the window starts a new one; reaching the lock count locks the key for a
 * window; past the free failures the next attempt must wait. With `onlyIfOpen` the row is left alone (and false
 * answered) while the key is locked or waiting: the check and the count are one statement, so they cannot race.
 */
async function countFailure(
  sql: Sql,
  entry: ThrottleKey,
  limits: ThrottleLimits,
  now: Date,
  onlyIfOpen: boolean,
): Promise<boolean> {
  const { free, lockAt } = rulesOf(entry.kind, limits);
  const windowStart = new Date(now.getTime() - limits.windowMs);
  const unlockAt = new Date(now.getTime() + limits.windowMs);
  const lockCount = lockAt ?? 2 ** 31 - 1;
  const firstDelay = delayAfter(1, free);
  // The failure count this attempt makes: the window's count plus one, or one when the window has passed.
  const failures = Prisma.sql`CASE WHEN t.window_starts_at < ${windowStart} THEN 1 ELSE t.failures + 1 END`;
  const rows = await sql.$queryRaw<{ failures: number }[]>`
    INSERT INTO sign_in_throttle AS t (key, failures, window_starts_at, next_attempt_at, locked_until, refused)
    VALUES (${entry.key}, 1, ${now},
            ${firstDelay > 0 ? new Date(now.getTime() + firstDelay) : null}::timestamptz,
            ${lockCount <= 1 ? unlockAt : null}::timestamptz, 0)
    ON CONFLICT (key) DO UPDATE SET
      failures = ${failures},
      window_starts_at = CASE WHEN t.window_starts_at < ${windowStart} THEN ${now} ELSE t.window_starts_at END,
      next_attempt_at = CASE WHEN ${failures} > ${free}::int
        THEN ${now}::timestamptz + make_interval(secs => LEAST(1000 * power(2, LEAST(${failures} - ${free}::int - 1, 16)), ${MAX_DELAY_MS}::int) / 1000.0)
        END,
      locked_until = CASE WHEN ${failures} >= ${lockCount}::int THEN ${unlockAt}::timestamptz
        WHEN t.locked_until > ${now} THEN t.locked_until END,
      refused = 0
    WHERE NOT ${onlyIfOpen}::boolean
       OR ((t.locked_until IS NULL OR t.locked_until <= ${now}) AND (t.next_attempt_at IS NULL OR t.next_attempt_at <= ${now}))
    RETURNING t.failures`;
  return rows.length > 0;
}

/** How long a successful sign-in makes its address familiar for the username. */
const KNOWN_ADDRESS_MS = 90 * 86_400_000;

/** Whether `username` signed in successfully from `sourceIp` within the last 90 days. */
export async function isFamiliarAddress(
  prisma: Pick<PrismaClient, 'signInKnownAddress'>,
  username: string,
  sourceIp: string | null,
  now = new Date(),
): Promise<boolean> {
  if (!sourceIp || !throttleName(username)) return false;
  const known = await prisma.signInKnownAddress.findUnique({
    where: { username_address: { username: throttleName(username), address: sourceIp } },
  });
  return !!known && known.lastSuccessAt.getTime() > now.getTime() - KNOWN_ADDRESS_MS;
}

/**
 * A successful sign-in: the pair's failures are forgiven and the address becomes familiar. The username-wide key
 * and the source only get back the reservation this attempt made: the owner signing in must neither unlock a
 * distributed guess nor a spray from their address, and the count of failures from unfamiliar addresses stays for
 * the owner to see (`unfamiliarFailures`).
 */
export async function forgiveSuccess(
  prisma: PrismaClient,
  keys: readonly ThrottleKey[],
  username: string,
  sourceIp: string | null,
  reserved: boolean,
): Promise<void> {
  const pairs = keys.filter((entry) => entry.kind === 'pair').map((entry) => entry.key);
  await prisma.signInThrottle.deleteMany({ where: { key: { in: pairs } } });
  const others = keys.filter((entry) => entry.kind === 'user' || entry.kind === 'source').map((entry) => entry.key);
  if (reserved && others.length > 0) {
    await prisma.$executeRaw`
      UPDATE sign_in_throttle SET failures = GREATEST(failures - 1, 0) WHERE key = ANY(${others}::text[])`;
  }
  if (sourceIp && throttleName(username)) {
    const now = new Date();
    // The user's addresses that are no longer familiar go as a new one comes: the table stays small.
    await prisma.signInKnownAddress.deleteMany({
      where: { username: throttleName(username), lastSuccessAt: { lt: new Date(now.getTime() - KNOWN_ADDRESS_MS) } },
    });
    await prisma.signInKnownAddress.upsert({
      where: { username_address: { username: throttleName(username), address: sourceIp } },
      create: { username: throttleName(username), address: sourceIp, lastSuccessAt: now },
      update: { lastSuccessAt: now },
    });
  }
}

/** Failures of the username from unfamiliar addresses in the current window, for its owner to see. */
export async function unfamiliarFailures(
  prisma: Pick<PrismaClient, 'signInThrottle'>,
  username: string,
): Promise<{ count: number; since: string; lockedUntil: string | null } | null> {
  const row = await prisma.signInThrottle.findUnique({ where: { key: `user:${throttleName(username)}` } });
  if (!row || row.failures === 0) return null;
  const locked = row.lockedUntil && row.lockedUntil > new Date() ? row.lockedUntil.toISOString() : null;
  return { count: row.failures, since: row.windowStartsAt.toISOString(), lockedUntil: locked };
}

export interface ThrottleEntry {
  readonly key: string;
  readonly kind: ThrottleKind;
  readonly failures: number;
  readonly lockedUntil: string | null;
  readonly nextAttemptAt: string | null;
  readonly refused: number;
}

/** Keys that are locked or waiting now, for the administrators' list. */
export async function activeThrottles(prisma: PrismaClient, now = new Date()): Promise<ThrottleEntry[]> {
  const rows = await prisma.signInThrottle.findMany({
    where: { OR: [{ lockedUntil: { gt: now } }, { nextAttemptAt: { gt: now } }] },
    orderBy: { key: 'asc' },
  });
  return rows.map((row) => ({
    key: row.key,
    kind: row.key.split(':')[0] as ThrottleKind,
    failures: row.failures,
    lockedUntil: row.lockedUntil && row.lockedUntil > now ? row.lockedUntil.toISOString() : null,
    nextAttemptAt: row.nextAttemptAt && row.nextAttemptAt > now ? row.nextAttemptAt.toISOString() : null,
    refused: row.refused,
  }));
}

/** Ends a lock or a wait now (an administrator's unlock). */
export async function clearThrottle(prisma: Pick<PrismaClient, 'signInThrottle'>, key: string): Promise<void> {
  await prisma.signInThrottle.deleteMany({ where: { key } });
}
