// The re-encrypt step of a key rotation on a real PostgreSQL: passwords under the previous key end up under the
// current one bound to their cluster and still open, and so do sealed client certificates; secrets stored before
// bindings (unbound, even under the current key) are sealed again with their binding; one no key opens is reported
// by cluster name and left alone.
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import {
  loadKeyRing,
  openSecret,
  openSecretAllowingUnbound,
  VaultError,
  type KeyRing,
  type Sealed,
} from '@/modules/platform/governance/index.ts';
import { openPassword, passwordBinding, sealPassword } from './password-cipher.ts';
import { resealPasswords } from './reseal.ts';
import { openTls, sealTls, storedTlsOf, tlsClientBinding, type StoredTls } from './cluster-tls.ts';
import { createTlsMaterial, type TlsMaterial } from '@test/artemis/tls-material.ts';

let database: TestDatabase;
let db: Database;
let tls: TlsMaterial;

beforeAll(async () => {
  tls = createTlsMaterial();
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'reseal-test' });
}, 90_000); // openssl and keytool under a loaded machine

beforeEach(async () => {
  await db.prisma.cluster.deleteMany();
});

afterAll(async () => {
  tls.remove();
  await db.close();
  await database.drop();
});

/** A secret as it was sealed before bindings: the same format, no additional authenticated data. */
function sealUnbound(keys: KeyRing, plaintext: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.bytes, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { cipher: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyId: keys.current.id };
}

async function insert(id: string, name: string, sealed: Sealed, stored?: StoredTls): Promise<string> {
  await db.prisma.cluster.create({
    data: { id, name, username: 'u', passwordCipher: sealed.cipher, passwordKeyId: sealed.keyId, tls: stored },
  });
  return id;
}

describe('key rotation', () => {
  it('re-encrypts under the current key and reports what it cannot read', async () => {
    const [oldKey, newKey, lostKey] = [0, 1, 2].map(() => randomBytes(32).toString('base64'));
    const old = loadKeyRing({ FLOTILLA_SECRET_KEY: oldKey });
    const lost = loadKeyRing({ FLOTILLA_SECRET_KEY: lostKey });
    const rotated = loadKeyRing({ FLOTILLA_SECRET_KEY: newKey, FLOTILLA_SECRET_KEY_PREVIOUS: oldKey });
    const [oldId, currentId, lostId] = [randomUUID(), randomUUID(), randomUUID()];
    await insert(
      oldId,
      'old',
      sealPassword(old, { clusterId: oldId, password: 'old-secret' }),
      sealTls(old, oldId, { clientCertificate: tls.clientCertPem, clientKey: tls.clientKeyPem }),
    );
    await insert(currentId, 'current', sealPassword(rotated, { clusterId: currentId, password: 'current-secret' }));
    await insert(lostId, 'lost', sealPassword(lost, { clusterId: lostId, password: 'lost-secret' }));
    const untouched = await db.prisma.cluster.findUniqueOrThrow({ where: { id: currentId } });

    const report = await resealPasswords(db.prisma, rotated);
    expect(report.resealed).toBe(1);
    expect(report.alreadyCurrent).toBe(1);
    expect(report.unreadable.map((entry) => entry.name)).toEqual(['lost']);
    expect(report.unreadable[0]?.reason).not.toContain('lost-secret');

    const row = await db.prisma.cluster.findUniqueOrThrow({ where: { id: oldId } });
    expect(row.passwordKeyId).toBe(rotated.current.id);
    const afterRotation = loadKeyRing({ FLOTILLA_SECRET_KEY: newKey });
    expect(openPassword(afterRotation, row)).toBe('old-secret');
    // The client certificate and key, sealed under the old key, follow the password to the new one.
    expect(storedTlsOf(row.tls).client?.keyId).toBe(rotated.current.id);
    expect(openTls(afterRotation, row)).toEqual({ cert: tls.clientCertPem, key: tls.clientKeyPem });
    // Already current and bound: not rewritten.
    const current = await db.prisma.cluster.findUniqueOrThrow({ where: { id: currentId } });
    expect(current.passwordCipher).toBe(untouched.passwordCipher);
  });

  it('binds secrets stored before bindings to their cluster, even under the current key', async () => {
    const keys = loadKeyRing({ FLOTILLA_SECRET_KEY: randomBytes(32).toString('base64') });
    const [id, otherId] = [randomUUID(), randomUUID()];
    const material = JSON.stringify({ cert: tls.clientCertPem, key: tls.clientKeyPem });
    const client = { ...sealUnbound(keys, material), subject: 'CN=client', notAfter: '2099-01-01T00:00:00.000Z' };
    const legacy = sealUnbound(keys, 'legacy-secret');
    await insert(id, 'legacy', legacy, { ca: tls.caPem, client });
    // Before the reseal an unbound secret opens, on its own row and (that is the weakness) on any other.
    const before = await db.prisma.cluster.findUniqueOrThrow({ where: { id } });
    expect(openPassword(keys, before)).toBe('legacy-secret');
    expect(openPassword(keys, { ...before, id: otherId })).toBe('legacy-secret');

    const report = await resealPasswords(db.prisma, keys);
    expect(report).toEqual({ resealed: 1, alreadyCurrent: 0, unreadable: [] });

    const row = await db.prisma.cluster.findUniqueOrThrow({ where: { id } });
    const password = { cipher: row.passwordCipher, keyId: row.passwordKeyId };
    expect(password.cipher).not.toBe(legacy.cipher);
    expect(password.keyId).toBe(keys.current.id);
    // The stored cipher now opens only with its binding: not on another row, and not unbound.
    expect(openSecret(keys, password, passwordBinding(id)).toString('utf8')).toBe('legacy-secret');
    expect(() => openSecretAllowingUnbound(keys, password, passwordBinding(otherId))).toThrow(VaultError);
    expect(() => openPassword(keys, { ...row, id: otherId })).toThrow(VaultError);
    const sealedClient = storedTlsOf(row.tls).client;
    expect(sealedClient?.cipher).not.toBe(client.cipher);
    expect(sealedClient).toMatchObject({ keyId: keys.current.id, subject: 'CN=client' });
    expect(storedTlsOf(row.tls).ca).toBe(tls.caPem);
    expect(JSON.parse(openSecret(keys, sealedClient ?? client, tlsClientBinding(id)).toString('utf8'))).toEqual({
      cert: tls.clientCertPem,
      key: tls.clientKeyPem,
    });
    expect(() => openSecretAllowingUnbound(keys, sealedClient ?? client, tlsClientBinding(otherId))).toThrow(
      VaultError,
    );

    // A second run finds everything current and bound.
    expect(await resealPasswords(db.prisma, keys)).toEqual({ resealed: 0, alreadyCurrent: 1, unreadable: [] });
  });
});
