// The management client against a broker whose web server (Jolokia) listens on https with a certificate from our own
// CA and demands a client certificate (bootstrap.xml binding with clientAuth="true"). With the CA and the client
// certificate a batched read works; without the CA, or without the client certificate, the call fails classified,
// with advice about certificates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { createTlsMaterial, type TlsMaterial } from '@test/artemis/tls-material.ts';
import { ManagementClient, type ManagementEndpoint } from './management-client.ts';
import { ManagementError } from './management-error.ts';

const BROKER = 'tlsmgmt1';
const BROKER_MBEAN = `org.apache.activemq.artemis:broker="${BROKER}"`;

let tls: TlsMaterial;
let topology: Topology | undefined;
let node: BrokerNode;
const clients: ManagementClient[] = [];

function clientWith(tlsOptions: ManagementEndpoint['tls']): ManagementClient {
  const client = new ManagementClient(
    { url: node.managementUrl, user: node.user, password: node.password, tls: tlsOptions },
    { maxConcurrentCalls: 2, maxCallsPerSecond: 100, timeoutMs: 10_000 },
  );
  clients.push(client);
  return client;
}

async function failureOf(client: ManagementClient): Promise<ManagementError> {
  const error: unknown = await client.call([{ type: 'read', mbean: BROKER_MBEAN, attribute: 'Version' }]).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ManagementError);
  return error as ManagementError;
}

beforeAll(async () => {
  tls = createTlsMaterial();
  topology = await startSingleNode({
    name: BROKER,
    managementTls: {
      keyStorePath: tls.serverKeyStorePath,
      keyStorePassword: tls.storePassword,
      clientAuth: { trustStorePath: tls.trustStorePath, trustStorePassword: tls.storePassword },
      client: { ca: tls.caPem, cert: tls.clientCertPem, key: tls.clientKeyPem },
    },
  });
  node = topology.nodes[0] as BrokerNode;
});

afterAll(async () => {
  for (const client of clients) client.close();
  await topology?.stop();
  tls.remove();
});

describe('management over https with a client certificate', () => {
  it('serves Jolokia on https on 127.0.0.1', () => {
    expect(node.managementUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/console\/jolokia$/);
  });

  it('reads in one batch with the custom CA and the client certificate', async () => {
    const client = clientWith({ ca: tls.caPem, cert: tls.clientCertPem, key: tls.clientKeyPem });
    const results = await client.call([
      { type: 'read', mbean: BROKER_MBEAN, attribute: 'Version' },
      { type: 'read', mbean: BROKER_MBEAN, attribute: ['Started', 'Active'] },
      { type: 'search', mbean: 'org.apache.activemq.artemis:broker=*' },
    ]);
    expect(results).toHaveLength(3);
    const [version, state, search] = results;
    expect(version).toEqual({ ok: true, value: expect.stringMatching(/^2\.44\.\d+/) as unknown });
    expect(state).toEqual({ ok: true, value: { Started: true, Active: true } });
    expect(search).toEqual({ ok: true, value: [BROKER_MBEAN] });
    expect(await client.brokerName()).toBe(BROKER);
  });

  it('fails as tls, with advice about the CA, when the broker certificate is not signed by the given CA', async () => {
    const error = await failureOf(clientWith({ ca: tls.otherCaPem, cert: tls.clientCertPem, key: tls.clientKeyPem }));
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/certificate|self.signed|unable to verify/i);
    expect(error.advice).toMatch(/CA/);
    expect(error.configSnippet).toMatch(/keyStorePath/);
  });

  it('fails as tls when no CA is given at all (the system CAs do not know ours)', async () => {
    const error = await failureOf(clientWith({ cert: tls.clientCertPem, key: tls.clientKeyPem }));
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET_ISSUER|VERIFY)/);
    expect(error.advice).toMatch(/certificate/);
  });

  it('fails classified, with advice about client certificates, without the client certificate', async () => {
    const error = await failureOf(clientWith({ ca: tls.caPem }));
    // Jetty refuses the handshake with a TLS alert (Node reports ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE): a TLS failure,
    // not a login failure, since no HTTP request is ever answered.
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/ALERT_(BAD_CERTIFICATE|CERTIFICATE_REQUIRED)/);
    expect(error.advice).toMatch(/client certificate/);
  });
});
