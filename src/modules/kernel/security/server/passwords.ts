// Password hashing with scrypt (node:crypto, no native dependency). Stored as
// `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so the cost can be raised later without breaking old hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ProblemError } from '@/modules/kernel/core/index.ts';

const COST = { N: 32_768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
// 128 * N * r bytes = 32 MiB per hash at the default cost; scrypt's default ceiling is exactly that.
const MAX_MEMORY = 64 * 1024 * 1024;

// scrypt runs on libuv's small thread pool, which file and DNS work share: unbounded, a burst of sign-ins would
// starve every other request (and hold 32 MiB each). At most HASH_SLOTS hashes run at once; at most HASH_QUEUE
// wait; beyond that a request is refused at once with 503 and Retry-After rather than queued for ever.
const HASH_SLOTS = 2;
const HASH_QUEUE = 64;
let running = 0;
const waiting: (() => void)[] = [];

async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) {
    if (waiting.length >= HASH_QUEUE) {
      throw new ProblemError({
        type: 'busy',
        title: 'Too busy',
        status: 503,
        detail: 'Too many password checks are waiting; try again in a moment.',
        retryAfterSeconds: 1,
      });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return inHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verified against when the user does not exist, so an unknown username costs the same time as a wrong password.
let decoyHash: Promise<string> | undefined;

export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoyHash);
  return false;
}

/** A random password for the first admin: 24 characters from an alphabet without look-alikes. */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(24)].map((byte) => alphabet[byte % alphabet.length]).join('');
}
