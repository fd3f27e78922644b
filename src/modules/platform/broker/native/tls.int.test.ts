// TLS on a real broker: an acceptor with a certificate from our own CA that also demands a client
// certificate. The client trusts only the custom CA and presents its certificate; without the client
// certificate or with another CA the connection must fail.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../../server/db/embedded-postgres.ts';
import { startSingleNode, type BrokerNode, type Topology } from '../../../../../test/support/artemis/index.ts';
import { browseQueue } from './browse.ts';
import { DEFAULT_NATIVE_OPTIONS } from './native-options.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { configureNativeOptions, nativeConnectionFor } from './native-pool.ts';
import { createAnycastQueue, endpointOf, uniqueName, waitFor } from './native-test-helpers.ts';
import { ensureNotificationSubscription } from './notification-subscription.ts';
import { sendMessage } from './send.ts';
import { shutdown } from './shutdown.ts';
import { subscriptionState } from './subscription-state.ts';

const STORE_PASSWORD = 'store-secret';

let dir: string;
let topology: Topology;
let node: BrokerNode;
let tlsPort: number;

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: dir, stdio: 'pipe' });
}

function makeCa(name: string): void {
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
}

function makeSignedCert(name: string, ca: string, extensions: string): void {
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
}

const pem = (file: string) => readFileSync(path.join(dir, file), 'utf8');

function tlsAcceptor(xml: string): string {
  const params = [
    'sslEnabled=true',
    `keyStorePath=${path.join(dir, 'server.p12')}`,
    `keyStorePassword=${STORE_PASSWORD}`,
    'keyStoreType=PKCS12',
    'needClientAuth=true',
    `trustStorePath=${path.join(dir, 'trust.p12')}`,
    `trustStorePassword=${STORE_PASSWORD}`,
    'trustStoreType=PKCS12',
    'protocols=AMQP',
  ].join(';');
  return xml.replace(
    '</acceptors>',
    `  <acceptor name="tls">tcp://127.0.0.1:${tlsPort}?${params}</acceptor>\n      </acceptors>`,
  );
}

function tlsEndpoint(overrides: Partial<NativeEndpoint> & { tls: NativeEndpoint['tls'] }): NativeEndpoint {
  return endpointOf(node, { port: tlsPort, clusterKey: 'tls', ...overrides });
}

beforeAll(async () => {
  configureNativeOptions({ ...DEFAULT_NATIVE_OPTIONS, closeTimeoutMs: 500, connectTimeoutMs: 5_000 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-tls-'));
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
    `pass:${STORE_PASSWORD}`,
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
    STORE_PASSWORD,
  ]);
  tlsPort = await findFreePort();
  topology = await startSingleNode({ name: 'tls1', brokerXmlEdits: tlsAcceptor });
  node = topology.nodes[0] as BrokerNode;
});

afterAll(async () => {
  await shutdown();
  await topology.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('TLS', () => {
  it('subscribes, sends and browses with a custom CA and a client certificate', async () => {
    const endpoint = tlsEndpoint({
      nodeKey: 'tls-good',
      tls: { ca: pem('test-ca.crt'), cert: pem('client.crt'), key: pem('client.key') },
    });
    ensureNotificationSubscription(endpoint);
    await waitFor('the subscription over TLS', () => subscriptionState('tls-good') === 'established');

    const queue = uniqueName('tls.q');
    await createAnycastQueue(node, queue);
    await sendMessage(endpoint, { address: queue, body: { encoding: 'text', text: 'over TLS' } });
    const page = await browseQueue(endpoint, { queue, offset: 0, limit: 5 });
    expect(page.messages.map((message) => Buffer.from(message.body.base64, 'base64').toString('utf8'))).toEqual([
      'over TLS',
    ]);
  });

  it('fails without the client certificate the acceptor demands', async () => {
    const connection = nativeConnectionFor(tlsEndpoint({ nodeKey: 'tls-no-cert', tls: { ca: pem('test-ca.crt') } }));
    await expect(connection.whenOpen(4_000)).rejects.toThrow(/no AMQP connection/);
    expect(connection.status).not.toBe('open');
  });

  it('fails when the broker certificate is not signed by the configured CA', async () => {
    const connection = nativeConnectionFor(
      tlsEndpoint({
        nodeKey: 'tls-other-ca',
        tls: { ca: pem('other-ca.crt'), cert: pem('client.crt'), key: pem('client.key') },
      }),
    );
    await expect(connection.whenOpen(4_000)).rejects.toThrow(/no AMQP connection/);
    await waitFor('a failure', () => connection.lastFailure);
    expect(connection.lastFailure?.message).toMatch(/certificate|self.signed|unable to verify/i);
  });
});
