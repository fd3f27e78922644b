// Broker passwords at rest: AES-256-GCM, a fresh 12-byte IV each time, stored as base64 of iv | tag | cipher text
// with the key's id beside it. A changed byte or the wrong key fails the tag check, and decryption refuses.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing } from './secret-key.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedPassword {
  readonly cipher: string;
  readonly keyId: string;
}

export class CredentialError extends Error {
  override readonly name = 'CredentialError';
}

export function sealPassword(keys: KeyRing, password: string): SealedPassword {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.bytes, iv);
  const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return { cipher: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyId: keys.current.id };
}

/** The clear password; throws CredentialError (never revealing the cipher text) when it cannot be read. */
export function openPassword(keys: KeyRing, sealed: SealedPassword): string {
  const key = keys.byId.get(sealed.keyId);
  if (!key) {
    throw new CredentialError(
      `the password was encrypted with key ${sealed.keyId}, which this process does not have (set FLOTILLA_SECRET_KEY_PREVIOUS during a rotation)`,
    );
  }
  const raw = Buffer.from(sealed.cipher, 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new CredentialError('the stored password is truncated');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new CredentialError(`the stored password does not verify under key ${sealed.keyId} (changed or wrong key)`);
  }
}

/** True when the cipher text is under an older key and should be re-encrypted. */
export function needsResealing(keys: KeyRing, sealed: SealedPassword): boolean {
  return sealed.keyId !== keys.current.id;
}
