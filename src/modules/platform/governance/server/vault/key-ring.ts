// The installation's key ring, which the secret vault seals with: FLOTILLA_SECRET_KEY (32 bytes as base64 or hex)
// when set, otherwise a key file made on first use under the data folder (mode 0600). FLOTILLA_SECRET_KEY_PREVIOUS
// keeps an old key readable during a rotation. Several instances on one database need the same key: set
// FLOTILLA_SECRET_KEY.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const KEY_FILE_NAME = 'flotilla-secret.key';

export interface SecretKey {
  /** First 8 hex digits of the key's SHA-256: stored beside each cipher text, reveals nothing about the key. */
  readonly id: string;
  readonly bytes: Buffer;
}

export interface KeyRing {
  /** Seals every new value. */
  readonly current: SecretKey;
  /** Every key that may open, the current one included, by id. */
  readonly byId: ReadonlyMap<string, SecretKey>;
}

function keyIdOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

/** 32 bytes from base64 (standard or url-safe) or 64 hex digits; anything else is refused with the reason. */
export function parseKey(text: string, variable: string): SecretKey {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== 32) {
    throw new Error(`${variable} must be 32 bytes as base64 or 64 hex digits (openssl rand -base64 32)`);
  }
  return { id: keyIdOf(bytes), bytes };
}

/** The key file under the data folder, written once (exclusive create, so racing processes agree on one). */
function keyFromFile(dataDir: string): SecretKey {
  const file = path.join(path.resolve(dataDir), KEY_FILE_NAME);
  try {
    return parseKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKey(readFileSync(file, 'utf8'), file);
}

export function loadKeyRing(source: Readonly<Record<string, string | undefined>> = process.env): KeyRing {
  const configured = source.FLOTILLA_SECRET_KEY;
  const current = configured
    ? parseKey(configured, 'FLOTILLA_SECRET_KEY')
    : keyFromFile(source.FLOTILLA_DATA_DIR ?? '.data');
  const byId = new Map([[current.id, current]]);
  const previous = source.FLOTILLA_SECRET_KEY_PREVIOUS;
  if (previous) {
    const key = parseKey(previous, 'FLOTILLA_SECRET_KEY_PREVIOUS');
    if (!byId.has(key.id)) byId.set(key.id, key);
  }
  return { current, byId };
}

let processKeyRing: KeyRing | undefined;

/** The key ring of this process, read from its environment once. */
export function processKeys(): KeyRing {
  processKeyRing ??= loadKeyRing();
  return processKeyRing;
}
