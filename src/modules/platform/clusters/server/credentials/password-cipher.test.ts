import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialError, needsResealing, openPassword, sealPassword } from './password-cipher.ts';
import { KEY_FILE_NAME, loadKeyRing, parseKey } from './secret-key.ts';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('hex');

describe('password cipher', () => {
  it('round-trips, with a fresh IV each time and no clear text in the cipher', () => {
    const keys = loadKeyRing({ FLOTILLA_SECRET_KEY: keyA });
    const first = sealPassword(keys, 'broker-secret');
    const second = sealPassword(keys, 'broker-secret');
    expect(first.cipher).not.toBe(second.cipher);
    expect(Buffer.from(first.cipher, 'base64').toString('latin1')).not.toContain('broker-secret');
    expect(openPassword(keys, first)).toBe('broker-secret');
    expect(first.keyId).toBe(keys.current.id);
  });

  it('refuses a tampered cipher text', () => {
    const keys = loadKeyRing({ FLOTILLA_SECRET_KEY: keyA });
    const sealed = sealPassword(keys, 'broker-secret');
    const raw = Buffer.from(sealed.cipher, 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => openPassword(keys, { ...sealed, cipher: raw.toString('base64') })).toThrow(CredentialError);
    const tag = Buffer.from(sealed.cipher, 'base64');
    tag[14] = (tag[14] ?? 0) ^ 0x80;
    expect(() => openPassword(keys, { ...sealed, cipher: tag.toString('base64') })).toThrow(/does not verify/);
  });

  it('refuses the wrong key, even one that claims the right id', () => {
    const sealed = sealPassword(loadKeyRing({ FLOTILLA_SECRET_KEY: keyA }), 'broker-secret');
    const other = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB });
    expect(() => openPassword(other, sealed)).toThrow(/does not have/);
    const impostor = { current: other.current, byId: new Map([[sealed.keyId, other.current]]) };
    expect(() => openPassword(impostor, sealed)).toThrow(/does not verify/);
  });

  it('reads under the previous key during a rotation and marks it for re-encryption', () => {
    const sealed = sealPassword(loadKeyRing({ FLOTILLA_SECRET_KEY: keyA }), 'broker-secret');
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB, FLOTILLA_SECRET_KEY_PREVIOUS: keyA });
    expect(openPassword(rotated, sealed)).toBe('broker-secret');
    expect(needsResealing(rotated, sealed)).toBe(true);
    expect(needsResealing(rotated, sealPassword(rotated, 'x'))).toBe(false);
  });

  it('accepts base64 and hex keys of 32 bytes only', () => {
    expect(parseKey(keyB, 'K').bytes).toHaveLength(32);
    expect(() => parseKey(randomBytes(16).toString('base64'), 'K')).toThrow(/32 bytes/);
  });

  it('creates a key file readable only by its owner on first use and reuses it', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-key-'));
    const first = loadKeyRing({ FLOTILLA_DATA_DIR: dataDir });
    const file = path.join(dataDir, KEY_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadKeyRing({ FLOTILLA_DATA_DIR: dataDir }).current.id).toBe(first.current.id);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });
});
