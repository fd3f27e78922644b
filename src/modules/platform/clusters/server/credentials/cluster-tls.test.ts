import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsMaterial, type TlsMaterial } from '@test/artemis/tls-material.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { loadKeyRing, VaultError } from '@/modules/platform/governance/index.ts';
import { openTls, resealTls, sealTls, tlsClientBinding, tlsView } from './cluster-tls.ts';

let tls: TlsMaterial;
let other: TlsMaterial;
const keys = loadKeyRing({ FLOTILLA_SECRET_KEY: randomBytes(32).toString('base64') });
const clusterId = randomUUID();

// openssl and keytool, twice: 1–2 s on a quiet machine, past the default 10 s hook limit at load 15 (seen in CI).
beforeAll(() => {
  tls = createTlsMaterial();
  other = createTlsMaterial();
}, 90_000);

afterAll(() => {
  tls.remove();
  other.remove();
});

function fieldErrorOf(work: () => unknown): { field: string; message: string } | undefined {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    return (error as ProblemError).problem.errors?.[0];
  }
  return undefined;
}

describe('a cluster client certificate at rest', () => {
  it('is sealed: neither the key nor the certificate is readable in what is stored, and it opens again', () => {
    const stored = sealTls(keys, clusterId, {
      ca: tls.caPem,
      clientCertificate: tls.clientCertPem,
      clientKey: tls.clientKeyPem,
    });
    const text = JSON.stringify(stored);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(tls.clientCertPem.split('\n')[1]);
    expect(stored?.client?.subject).toBe('CN=client');
    expect(Date.parse(stored?.client?.notAfter ?? '')).toBeGreaterThan(Date.now());
    expect(openTls(keys, { id: clusterId, tls: stored })).toEqual({
      ca: tls.caPem,
      cert: tls.clientCertPem,
      key: tls.clientKeyPem,
    });
    expect(resealTls(keys, { id: clusterId, tls: stored })).toBeUndefined();
    expect(tlsView(stored)).toEqual({
      ca: true,
      clientCertificate: { subject: 'CN=client', notAfter: stored?.client?.notAfter },
    });
  });

  it('refuses a key that does not belong to the certificate', () => {
    expect(
      fieldErrorOf(() =>
        sealTls(keys, clusterId, { clientCertificate: tls.clientCertPem, clientKey: other.clientKeyPem }),
      ),
    ).toEqual({ field: 'tls.clientKey', message: 'does not belong to the client certificate' });
  });

  it('refuses a certificate without its key, and text that is not PEM', () => {
    expect(fieldErrorOf(() => sealTls(keys, clusterId, { clientCertificate: tls.clientCertPem }))?.field).toBe(
      'tls.clientKey',
    );
    expect(
      fieldErrorOf(() => sealTls(keys, clusterId, { clientCertificate: 'nonsense', clientKey: tls.clientKeyPem })),
    ).toEqual({
      field: 'tls.clientCertificate',
      message: 'is not a PEM X.509 certificate',
    });
  });

  it('stores only the CA when no client certificate is given, and nothing for nothing', () => {
    expect(sealTls(keys, clusterId, { ca: tls.caPem })).toEqual({ ca: tls.caPem });
    expect(sealTls(keys, clusterId, {})).toBeUndefined();
    expect(openTls(keys, { id: clusterId, tls: null })).toBeUndefined();
    expect(resealTls(keys, { id: clusterId, tls: { ca: tls.caPem } })).toBeUndefined();
  });

  it('is bound to its cluster: copied onto another one it does not open', () => {
    const stored = sealTls(keys, clusterId, { clientCertificate: tls.clientCertPem, clientKey: tls.clientKeyPem });
    expect(tlsClientBinding(clusterId)).toBe(`cluster:${clusterId}:tls-client`);
    expect(() => openTls(keys, { id: randomUUID(), tls: stored })).toThrow(VaultError);
  });

  it('still opens a client certificate sealed before bindings, and reseals it bound', () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keys.current.bytes, iv);
    const material = JSON.stringify({ cert: tls.clientCertPem, key: tls.clientKeyPem });
    const body = Buffer.concat([cipher.update(material, 'utf8'), cipher.final()]);
    const client = {
      cipher: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'),
      keyId: keys.current.id,
      subject: 'CN=client',
      notAfter: '2099-01-01T00:00:00.000Z',
    };
    const legacy = { id: clusterId, tls: { client } };
    expect(openTls(keys, legacy)).toEqual({ cert: tls.clientCertPem, key: tls.clientKeyPem });
    const resealed = resealTls(keys, legacy);
    expect(resealed?.client).toMatchObject({ keyId: keys.current.id, subject: 'CN=client' });
    expect(resealed?.client?.cipher).not.toBe(client.cipher);
    expect(openTls(keys, { id: clusterId, tls: resealed })).toEqual({ cert: tls.clientCertPem, key: tls.clientKeyPem });
    expect(() => openTls(keys, { id: randomUUID(), tls: resealed })).toThrow(VaultError);
  });
});
