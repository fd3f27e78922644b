import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY_FILE_NAME, loadKeyRing, parseKey, processKeys } from './key-ring.ts';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('hex');

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the key ring', () => {
  it('accepts base64 and hex keys of 32 bytes only, and names a key by the first 8 hex of its SHA-256', () => {
    const hex = parseKey(keyB, 'K');
    expect(hex.bytes).toHaveLength(32);
    expect(hex.id).toBe(createHash('sha256').update(Buffer.from(keyB, 'hex')).digest('hex').slice(0, 8));
    expect(parseKey(keyA, 'K').bytes.equals(Buffer.from(keyA, 'base64'))).toBe(true);
    expect(() => parseKey(randomBytes(16).toString('base64'), 'K')).toThrow(/K must be 32 bytes/);
  });

  it('seals with FLOTILLA_SECRET_KEY and keeps FLOTILLA_SECRET_KEY_PREVIOUS readable during a rotation', () => {
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: keyB, FLOTILLA_SECRET_KEY_PREVIOUS: keyA });
    expect(rotated.current.id).toBe(parseKey(keyB, 'K').id);
    expect([...rotated.byId.keys()].sort()).toEqual([parseKey(keyA, 'K').id, parseKey(keyB, 'K').id].sort());
    expect(loadKeyRing({ FLOTILLA_SECRET_KEY: keyA, FLOTILLA_SECRET_KEY_PREVIOUS: keyA }).byId.size).toBe(1);
    expect(() => loadKeyRing({ FLOTILLA_SECRET_KEY: keyA, FLOTILLA_SECRET_KEY_PREVIOUS: 'short' })).toThrow(
      /FLOTILLA_SECRET_KEY_PREVIOUS must be 32 bytes/,
    );
  });

  it('creates a key file readable only by its owner on first use and reuses it', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-key-'));
    const first = loadKeyRing({ FLOTILLA_DATA_DIR: dataDir });
    const file = path.join(dataDir, KEY_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadKeyRing({ FLOTILLA_DATA_DIR: dataDir }).current.id).toBe(first.current.id);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  it('is read from the process environment once', () => {
    vi.stubEnv('FLOTILLA_SECRET_KEY', keyA);
    const ring = processKeys();
    expect(ring.current.id).toBe(parseKey(keyA, 'K').id);
    vi.stubEnv('FLOTILLA_SECRET_KEY', keyB);
    expect(processKeys()).toBe(ring);
  });
});
