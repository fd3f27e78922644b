import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadKeyRing, VaultError, type KeyRing } from '@/modules/platform/governance/index.ts';
import { openPassword, passwordBinding, resealPassword, sealPassword } from './password-cipher.ts';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('hex');
const keys = loadKeyRing({ FLOTILLA_SECRET_KEY: keyA });

/** A cluster row holding `password` as registration stores it. */
function row(keyRing: KeyRing, password: string, id = randomUUID()) {
  const sealed = sealPassword(keyRing, { clusterId: id, password });
  return { id, passwordCipher: sealed.cipher, passwordKeyId: sealed.keyId };
}

/** A password as it was stored before bindings: sealed with no additional authenticated data. */
function legacyRow(keyRing: KeyRing, password: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyRing.current.bytes, iv);
  const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  const passwordCipher = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  return { id: randomUUID(), passwordCipher, passwordKeyId: keyRing.current.id };
}

describe('a cluster password at rest', () => {
  it('is sealed by the vault bound to its cluster, and opens again', () => {
    const cluster = row(keys, 'broker-secret');
    expect(Buffer.from(cluster.passwordCipher, 'base64').toString('latin1')).not.toContain('broker-secret');
    expect(cluster.passwordKeyId).toBe(keys.current.id);
    expect(passwordBinding(cluster.id)).toBe(`cluster:${cluster.id}:password`);
    expect(openPassword(keys, cluster)).toBe('broker-secret');
    expect(resealPassword(keys, cluster)).toBeUndefined();
  });

  it('does not open when copied onto another cluster', () => {
    const cluster = row(keys, 'broker-secret');
    expect(() => openPassword(keys, { ...cluster, id: randomUUID() })).toThrow(VaultError);
    expect(() => openPassword(keys, { ...cluster, id: randomUUID() })).toThrow(/does not verify/);
  });

  it('refuses a tampered cipher text and an unknown key', () => {
    const cluster = row(keys, 'broker-secret');
    const raw = Buffer.from(cluster.passwordCipher, 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => openPassword(keys, { ...cluster, passwordCipher: raw.toString('base64') })).toThrow(VaultError);
    expect(() => openPassword(loadKeyRing({ FLOTILLA_SECRET_KEY: keyB }), cluster)).toThrow(/does not have/);
  });

  it('reads under the previous key during a rotation, and reseals under the current key with the binding', () => {
    const cluster = row(keys, 'broker-secret');
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB, FLOTILLA_SECRET_KEY_PREVIOUS: keyA });
    expect(openPassword(rotated, cluster)).toBe('broker-secret');
    const next = resealPassword(rotated, cluster);
    expect(next?.keyId).toBe(rotated.current.id);
    const resealed = { ...cluster, passwordCipher: next?.cipher ?? '', passwordKeyId: next?.keyId ?? '' };
    expect(openPassword(loadKeyRing({ FLOTILLA_SECRET_KEY: keyB }), resealed)).toBe('broker-secret');
    expect(resealPassword(rotated, resealed)).toBeUndefined();
  });

  it('still opens a password stored before bindings, and reseals it bound even under the current key', () => {
    const legacy = legacyRow(keys, 'old-secret');
    expect(openPassword(keys, legacy)).toBe('old-secret');
    // Unbound, it opens on any row until resealed: that is what the reseal is for.
    const next = resealPassword(keys, legacy);
    expect(next?.keyId).toBe(keys.current.id);
    const bound = { ...legacy, passwordCipher: next?.cipher ?? '', passwordKeyId: next?.keyId ?? '' };
    expect(openPassword(keys, bound)).toBe('old-secret');
    expect(resealPassword(keys, bound)).toBeUndefined();
    expect(() => openPassword(keys, { ...bound, id: randomUUID() })).toThrow(VaultError);
  });
});
