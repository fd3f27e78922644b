// TLS on a real broker: an acceptor with a certificate from our own CA that also demands a client
// certificate. The client trusts only the custom CA and presents its certificate; without the client
// certificate or with another CA the connection must fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '@/base/db/embedded-postgres.ts';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { createTlsMaterial, type TlsMaterial } from '@test/artemis/tls-material.ts';
import { browseQueue } from './browse.ts';
import { DEFAULT_NATIVE_OPTIONS } from './native-options.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { configureNativeOptions, nativeConnectionFor } from './native-pool.ts';
import { createAnycastQueue, endpointOf, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { ensureNotificationSubscription } from './notification-subscription.ts';
import { sendMessage } from './send.ts';
import { shutdown } from './shutdown.ts';
import { subscriptionState } from './subscription-state.ts';

let tls: TlsMaterial;
let topology: Topology;
let node: BrokerNode;
let tlsPort: number;

function tlsAcceptor(xml: string): string {
  const params = [
    'sslEnabled=true',
    `keyStorePath=${tls.serverKeyStorePath}`,
    `keyStorePassword=${tls.storePassword}`,
    'keyStoreType=PKCS12',
    'needClientAuth=true',
    `trustStorePath=${tls.trustStorePath}`,
    `trustStorePassword=${tls.storePassword}`,
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
  tls = createTlsMaterial();
  tlsPort = await findFreePort();
  topology = await startSingleNode({ name: 'tls1', brokerXmlEdits: tlsAcceptor });
  node = topology.nodes[0] as BrokerNode;
});

afterAll(async () => {
  await shutdown();
  await topology.stop();
  tls.remove();
});

describe('TLS', () => {
  it('subscribes, sends and browses with a custom CA and a client certificate', async () => {
    const endpoint = tlsEndpoint({
      nodeKey: 'tls-good',
      tls: { ca: tls.caPem, cert: tls.clientCertPem, key: tls.clientKeyPem },
    });
    ensureNotificationSubscription(endpoint, () => undefined);
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
    const connection = nativeConnectionFor(tlsEndpoint({ nodeKey: 'tls-no-cert', tls: { ca: tls.caPem } }));
    await expect(connection.whenOpen(4_000)).rejects.toThrow(/no AMQP connection/);
    expect(connection.status).not.toBe('open');
  });

  it('fails when the broker certificate is not signed by the configured CA', async () => {
    const connection = nativeConnectionFor(
      tlsEndpoint({
        nodeKey: 'tls-other-ca',
        tls: { ca: tls.otherCaPem, cert: tls.clientCertPem, key: tls.clientKeyPem },
      }),
    );
    await expect(connection.whenOpen(4_000)).rejects.toThrow(/no AMQP connection/);
    await waitFor('a failure', () => connection.lastFailure);
    expect(connection.lastFailure?.message).toMatch(/certificate|self.signed|unable to verify/i);
  });
});
