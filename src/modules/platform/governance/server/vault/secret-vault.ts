// The secret vault: every secret Flotilla keeps at rest is sealed here, with the key ring's current key.
// AES-256-GCM, a fresh 12-byte IV each time, stored as base64 of iv | tag | cipher text with the key's id beside it.
// Each value is bound to where it is stored (`boundTo`, e.g. `cluster:<id>:password`), which GCM authenticates as
// additional data: a value copied onto another row, a changed byte or the wrong key fails the tag check, and opening
// refuses with a VaultError that names the key id and the binding, never the clear text, the key or the cipher text.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing, SecretKey } from './key-ring.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a store keeps: base64 of iv | tag | cipher text, and the id of the key that sealed it. */
export interface Sealed {
  readonly cipher: string;
  readonly keyId: string;
}

type VaultErrorReason = 'unknown-key' | 'malformed' | 'does-not-verify';

/** A sealed value that cannot be opened. Its message names the key id and the binding only. */
export class VaultError extends Error {
  override readonly name = 'VaultError';

  constructor(
    readonly reason: VaultErrorReason,
    message: string,
  ) {
    super(message);
  }
}

function bindingOf(boundTo: string): Buffer {
  if (boundTo === '') throw new TypeError('a sealed value must be bound to where it is stored');
  return Buffer.from(boundTo, 'utf8');
}

/** Seals `plaintext` (text as UTF-8) under the current key, bound to `boundTo`. */
export function sealSecret(keys: KeyRing, plaintext: string | Buffer, boundTo: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, keys.current.bytes, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(bindingOf(boundTo));
  const body = Buffer.concat([
    typeof plaintext === 'string' ? cipher.update(plaintext, 'utf8') : cipher.update(plaintext),
    cipher.final(),
  ]);
  return { cipher: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyId: keys.current.id };
}

/** The key and the raw parts of a sealed value, or the reason it cannot be opened. */
function partsOf(keys: KeyRing, sealed: Sealed, boundTo: string): { key: SecretKey; raw: Buffer } {
  const key = keys.byId.get(sealed.keyId);
  if (!key) {
    throw new VaultError(
      'unknown-key',
      `the secret for ${boundTo} was sealed with key ${sealed.keyId}, which this process does not have (set FLOTILLA_SECRET_KEY_PREVIOUS during a rotation)`,
    );
  }
  const raw = Buffer.from(sealed.cipher, 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new VaultError('malformed', `the secret for ${boundTo} is truncated`);
  return { key, raw };
}

/** The clear bytes, or undefined when the tag does not verify under this key and additional data. */
function tryOpen(key: SecretKey, raw: Buffer, binding: Buffer | undefined): Buffer | undefined {
  try {
    const decipher = createDecipheriv(ALGORITHM, key.bytes, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    if (binding) decipher.setAAD(binding);
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}

function doesNotVerify(sealed: Sealed, boundTo: string): VaultError {
  return new VaultError(
    'does-not-verify',
    `the secret for ${boundTo} does not verify under key ${sealed.keyId} (changed, sealed for another place, or the wrong key)`,
  );
}

/** The clear bytes of a value sealed for `boundTo`; throws VaultError when it cannot be opened. */
export function openSecret(keys: KeyRing, sealed: Sealed, boundTo: string): Buffer {
  const { key, raw } = partsOf(keys, sealed, boundTo);
  const value = tryOpen(key, raw, bindingOf(boundTo));
  if (!value) throw doesNotVerify(sealed, boundTo);
  return value;
}

/**
 * For stores that held values sealed before bindings existed: opens a value sealed for `boundTo` or, failing that,
 * one sealed with no binding at all. `bound: false` says it was such a legacy value, to be sealed again with its
 * binding (a value sealed for another place opens neither way). New stores use openSecret.
 */
export function openSecretAllowingUnbound(
  keys: KeyRing,
  sealed: Sealed,
  boundTo: string,
): { readonly value: Buffer; readonly bound: boolean } {
  const { key, raw } = partsOf(keys, sealed, boundTo);
  const bound = tryOpen(key, raw, bindingOf(boundTo));
  if (bound) return { value: bound, bound: true };
  const legacy = tryOpen(key, raw, undefined);
  if (legacy) return { value: legacy, bound: false };
  throw doesNotVerify(sealed, boundTo);
}

/** True when the value is under an older key and should be sealed again under the current one. */
export function needsResealing(keys: KeyRing, sealed: Sealed): boolean {
  return sealed.keyId !== keys.current.id;
}
