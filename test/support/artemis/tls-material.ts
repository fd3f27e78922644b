// Throw-away TLS material for broker tests, made with openssl and keytool in a temp folder: a test CA, a second CA
// nobody trusts, a server certificate for 127.0.0.1 (PKCS12 key store) and a client certificate, both signed by the
// test CA, and a PKCS12 trust store holding the test CA. Call `remove()` when done.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TlsMaterial {
  readonly dir: string;
  /** Password of both PKCS12 stores. */
  readonly storePassword: string;
  /** PKCS12 with the server key and certificate (CN=server, SAN IP:127.0.0.1) and the test CA. */
  readonly serverKeyStorePath: string;
  /** PKCS12 trust store holding only the test CA. */
  readonly trustStorePath: string;
  /** PEM files' contents. */
  readonly caPem: string;
  readonly otherCaPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  remove(): void;
}

export function createTlsMaterial(): TlsMaterial {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-tls-'));
  const storePassword = 'store-secret';
  const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: dir, stdio: 'pipe' });
  const makeCa = (name: string) =>
    run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
    ]);
  const makeSignedCert = (name: string, ca: string, extensions: string) => {
    writeFileSync(path.join(dir, `${name}.ext`), extensions);
    run('openssl', [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
    ]);
    run('openssl', [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.crt`,
    ]);
  };
  try {
    makeCa('test-ca');
    makeCa('other-ca');
    makeSignedCert('server', 'test-ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    makeSignedCert('client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
    run('openssl', [
      'pkcs12',
      '-export',
      '-in',
      'server.crt',
      '-inkey',
      'server.key',
      '-certfile',
      'test-ca.crt',
      '-name',
      'server',
      '-out',
      'server.p12',
      '-passout',
      `pass:${storePassword}`,
    ]);
    run('keytool', [
      '-importcert',
      '-noprompt',
      '-alias',
      'ca',
      '-file',
      'test-ca.crt',
      '-keystore',
      'trust.p12',
      '-storetype',
      'PKCS12',
      '-storepass',
      storePassword,
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const pem = (file: string) => readFileSync(path.join(dir, file), 'utf8');
  return {
    dir,
    storePassword,
    serverKeyStorePath: path.join(dir, 'server.p12'),
    trustStorePath: path.join(dir, 'trust.p12'),
    caPem: pem('test-ca.crt'),
    otherCaPem: pem('other-ca.crt'),
    clientCertPem: pem('client.crt'),
    clientKeyPem: pem('client.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
