import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadKeyRing, type KeyRing } from './key-ring.ts';
import { needsResealing, openSecret, openSecretAllowingUnbound, sealSecret, VaultError } from './secret-vault.ts';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('hex');
const ringA = loadKeyRing({ FLOTILLA_SECRET_KEY: keyA });
const rowOne = 'cluster:6f1c0e1e-0000-4000-8000-000000000001:password';
const rowTwo = 'cluster:6f1c0e1e-0000-4000-8000-000000000002:password';

/** How values were sealed before bindings: the same format, no additional authenticated data. */
function sealUnbound(keys: KeyRing, plaintext: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.bytes, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { cipher: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyId: keys.current.id };
}

/** The VaultError `work` throws; fails when it throws anything else or nothing. */
function vaultErrorOf(work: () => unknown): VaultError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(VaultError);
    return error as VaultError;
  }
  throw new Error('expected a VaultError');
}

describe('the secret vault', () => {
  it('round-trips text and bytes, with a fresh IV each time and no clear text in the cipher', () => {
    const first = sealSecret(ringA, 'broker-secret', rowOne);
    const second = sealSecret(ringA, 'broker-secret', rowOne);
    expect(first.cipher).not.toBe(second.cipher);
    expect(Buffer.from(first.cipher, 'base64').toString('latin1')).not.toContain('broker-secret');
    expect(Buffer.from(first.cipher, 'base64')).toHaveLength(12 + 16 + 'broker-secret'.length);
    expect(first.keyId).toBe(ringA.current.id);
    expect(openSecret(ringA, first, rowOne).toString('utf8')).toBe('broker-secret');
    const bytes = randomBytes(100);
    expect(openSecret(ringA, sealSecret(ringA, bytes, rowOne), rowOne).equals(bytes)).toBe(true);
    expect(openSecret(ringA, sealSecret(ringA, '', rowOne), rowOne)).toHaveLength(0);
  });

  it('refuses a value sealed for one row on another (row swap), either way of opening', () => {
    const sealed = sealSecret(ringA, 'broker-secret', rowOne);
    const swapped = vaultErrorOf(() => openSecret(ringA, sealed, rowTwo));
    expect(swapped.reason).toBe('does-not-verify');
    expect(swapped.message).toContain(rowTwo);
    expect(vaultErrorOf(() => openSecretAllowingUnbound(ringA, sealed, rowTwo)).reason).toBe('does-not-verify');
    expect(openSecretAllowingUnbound(ringA, sealed, rowOne)).toEqual({
      value: Buffer.from('broker-secret'),
      bound: true,
    });
    expect(() => sealSecret(ringA, 'x', '')).toThrow(TypeError);
  });

  it('refuses a tampered cipher text, tag or IV, and a truncated one', () => {
    const sealed = sealSecret(ringA, 'broker-secret', rowOne);
    for (const index of [0, 14, Buffer.from(sealed.cipher, 'base64').length - 1]) {
      const raw = Buffer.from(sealed.cipher, 'base64');
      raw[index] = (raw[index] ?? 0) ^ 0x01;
      const error = vaultErrorOf(() =>
        openSecretAllowingUnbound(ringA, { ...sealed, cipher: raw.toString('base64') }, rowOne),
      );
      expect(error.reason).toBe('does-not-verify');
      expect(error.message).toMatch(/does not verify/);
    }
    const truncated = { ...sealed, cipher: Buffer.from(sealed.cipher, 'base64').subarray(0, 20).toString('base64') };
    expect(vaultErrorOf(() => openSecret(ringA, truncated, rowOne)).reason).toBe('malformed');
  });

  it('refuses the wrong key, even one that claims the right id, and never shows the secret or the key', () => {
    const sealed = sealSecret(ringA, 'broker-secret', rowOne);
    const other = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB });
    const unknown = vaultErrorOf(() => openSecret(other, sealed, rowOne));
    expect(unknown.reason).toBe('unknown-key');
    expect(unknown.message).toMatch(new RegExp(`key ${sealed.keyId}, which this process does not have`));
    const impostor = { current: other.current, byId: new Map([[sealed.keyId, other.current]]) };
    const wrong = vaultErrorOf(() => openSecretAllowingUnbound(impostor, sealed, rowOne));
    expect(wrong.reason).toBe('does-not-verify');
    for (const error of [unknown, wrong]) {
      const shown = `${error.message} ${String(error.stack)} ${JSON.stringify(error)}`;
      for (const hidden of ['broker-secret', keyA, keyB, sealed.cipher, other.current.bytes.toString('base64')]) {
        expect(shown).not.toContain(hidden);
      }
    }
  });

  it('opens under the previous key during a rotation and says the value needs resealing', () => {
    const sealed = sealSecret(ringA, 'broker-secret', rowOne);
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB, FLOTILLA_SECRET_KEY_PREVIOUS: keyA });
    expect(openSecret(rotated, sealed, rowOne).toString('utf8')).toBe('broker-secret');
    expect(needsResealing(rotated, sealed)).toBe(true);
    expect(needsResealing(ringA, sealed)).toBe(false);
    const resealed = sealSecret(rotated, openSecret(rotated, sealed, rowOne), rowOne);
    expect(resealed.keyId).toBe(rotated.current.id);
    expect(needsResealing(rotated, resealed)).toBe(false);
    // Once the previous key is gone, only the resealed value opens.
    const after = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB });
    expect(openSecret(after, resealed, rowOne).toString('utf8')).toBe('broker-secret');
    expect(vaultErrorOf(() => openSecret(after, sealed, rowOne)).reason).toBe('unknown-key');
  });

  it('still opens a legacy value sealed without a binding where that is allowed, and says it is unbound', () => {
    const legacy = sealUnbound(ringA, 'broker-secret');
    expect(openSecretAllowingUnbound(ringA, legacy, rowOne)).toEqual({
      value: Buffer.from('broker-secret'),
      bound: false,
    });
    expect(vaultErrorOf(() => openSecret(ringA, legacy, rowOne)).reason).toBe('does-not-verify');
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB, FLOTILLA_SECRET_KEY_PREVIOUS: keyA });
    expect(openSecretAllowingUnbound(rotated, legacy, rowOne).bound).toBe(false);
    expect(needsResealing(rotated, legacy)).toBe(true);
  });
});
