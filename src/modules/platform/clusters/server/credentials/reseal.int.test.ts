// The re-encrypt step of a key rotation on a real PostgreSQL: passwords under the previous key end up under the
// current one and still open; one no key opens is reported by cluster name and left alone.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../../test/support/database.ts';
import { openDatabase, type Database } from '@/server/db/database.ts';
import { openPassword, sealPassword } from './password-cipher.ts';
import { resealPasswords } from './reseal.ts';
import { loadKeyRing } from './secret-key.ts';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'reseal-test' });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('key rotation', () => {
  it('re-encrypts under the current key and reports what it cannot read', async () => {
    const [oldKey, newKey, lostKey] = [0, 1, 2].map(() => randomBytes(32).toString('base64'));
    const old = loadKeyRing({ FLOTILLA_SECRET_KEY: oldKey });
    const lost = loadKeyRing({ FLOTILLA_SECRET_KEY: lostKey });
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: newKey, FLOTILLA_SECRET_KEY_PREVIOUS: oldKey });
    const insert = async (name: string, sealed: { cipher: string; keyId: string }) => {
      const id = randomUUID();
      await db.prisma.cluster.create({
        data: { id, name, username: 'u', passwordCipher: sealed.cipher, passwordKeyId: sealed.keyId },
      });
      return id;
    };
    const oldId = await insert('old', sealPassword(old, 'old-secret'));
    await insert('current', sealPassword(rotated, 'current-secret'));
    await insert('lost', sealPassword(lost, 'lost-secret'));

    const report = await resealPasswords(db.prisma, rotated);
    expect(report.resealed).toBe(1);
    expect(report.alreadyCurrent).toBe(1);
    expect(report.unreadable.map((entry) => entry.name)).toEqual(['lost']);
    expect(report.unreadable[0]?.reason).not.toContain('lost-secret');

    const row = await db.prisma.cluster.findUniqueOrThrow({ where: { id: oldId } });
    expect(row.passwordKeyId).toBe(rotated.current.id);
    const afterRotation = loadKeyRing({ FLOTILLA_SECRET_KEY: newKey });
    expect(openPassword(afterRotation, { cipher: row.passwordCipher, keyId: row.passwordKeyId })).toBe('old-secret');
  });
});
