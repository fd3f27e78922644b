// Registration of a broker that demands a TLS client certificate on its management endpoint (Jolokia binding with
// clientAuth) and on its AMQP acceptor (needClientAuth), through the REST API on a real PostgreSQL: refused without
// the certificate, registered with it (certificate and key sealed, never returned or audited), and the worker's
// native subscription established over mutual TLS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { createTlsMaterial, type TlsMaterial } from '@test/artemis/tls-material.ts';
import { openTestRuntimes, type TestRuntimes } from '@test/worker-kit.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { findFreePort } from '@/base/db/embedded-postgres.ts';

const BASE = 'http://127.0.0.1/api/v1';
let tls: TlsMaterial;
let tlsPort: number;
let topology: Topology | undefined;
let node: BrokerNode;
let secured: SecuredRuntime;
let auth: AuthHeaders;
let worker: TestRuntimes | undefined;

function mutualTlsAcceptor(xml: string): string {
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
    `  <acceptor name="mtls">tcp://127.0.0.1:${tlsPort}?${params}</acceptor>\n      </acceptors>`,
  );
}

interface Answer {
  clusterId?: string;
  checks?: Array<{ status: string; detail: string }>;
  errors?: unknown;
  tls?: unknown;
  items?: Array<{ capability: string; value: string }>;
}

async function call(method: string, path: string, body?: unknown) {
  const response = await secured.rest(
    new Request(`${BASE}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Answer };
}

const registration = (clientTls: Record<string, string>) => ({
  name: 'mutual',
  environment: 'secure',
  nodes: [{ managementUrl: node.managementUrl, amqpUrl: `amqps://127.0.0.1:${tlsPort}` }],
  credentials: { username: node.user, password: node.password },
  tls: { ca: tls.caPem, ...clientTls },
});

beforeAll(async () => {
  tls = createTlsMaterial();
  tlsPort = await findFreePort();
  topology = await startSingleNode({
    name: 'mtls1',
    managementTls: {
      keyStorePath: tls.serverKeyStorePath,
      keyStorePassword: tls.storePassword,
      clientAuth: { trustStorePath: tls.trustStorePath, trustStorePassword: tls.storePassword },
      client: { ca: tls.caPem, cert: tls.clientCertPem, key: tls.clientKeyPem },
    },
    brokerXmlEdits: mutualTlsAcceptor,
  });
  node = topology.nodes[0] as BrokerNode;
  secured = await openSecuredRuntime();
  auth = await signIn(secured.rest, 'http://127.0.0.1');
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await secured.close();
  await topology?.stop();
  tls.remove();
});

describe('registering brokers that demand a client certificate', () => {
  it('is refused without the client certificate, with a TLS answer, and saves nothing', async () => {
    const { status, json } = await call('POST', '/clusters', registration({}));
    expect(status).toBe(422);
    const failed = (json.checks ?? []).find((check) => check.status === 'fail');
    expect(failed?.detail).toMatch(/tls|certificate|socket/i);
    expect(await secured.runtime.prisma.cluster.count()).toBe(0);
  });

  it('answers 400 for a key that is not PEM, before any broker is called', async () => {
    const { status, json } = await call(
      'POST',
      '/clusters',
      registration({ clientCertificate: tls.clientCertPem, clientKey: 'not a key' }),
    );
    expect(status).toBe(400);
    expect(json.errors).toEqual([{ field: 'tls.clientKey', message: 'is not an unencrypted PEM private key' }]);
  });

  it('registers with it: sealed at rest, shown only by subject, and the native subscription is established', async () => {
    const { status, json } = await call(
      'POST',
      '/clusters',
      registration({ clientCertificate: tls.clientCertPem, clientKey: tls.clientKeyPem }),
    );
    expect(status, JSON.stringify(json)).toBe(200);
    const clusterId = String(json.clusterId);
    const detail = await call('GET', `/clusters/${clusterId}`);
    expect(detail.json.tls).toMatchObject({ ca: true, clientCertificate: { subject: 'CN=client' } });
    expect(JSON.stringify(detail.json)).not.toContain('PRIVATE KEY');
    expect((await call('GET', `/clusters/${clusterId}/capabilities`)).json.items).toContainEqual(
      expect.objectContaining({ capability: 'MANAGEMENT_READ', value: 'AVAILABLE' }),
    );

    const row = await secured.runtime.prisma.cluster.findUniqueOrThrow({ where: { id: clusterId } });
    const stored = JSON.stringify(row.tls);
    expect(stored).not.toContain('PRIVATE KEY');
    expect(stored).not.toContain(tls.clientKeyPem.split('\n')[1]);
    const audit = await secured.runtime.prisma.auditEvent.findFirst({
      where: { action: 'cluster.register', clusterId },
    });
    expect(JSON.stringify(audit?.parameters)).not.toContain('PRIVATE KEY');

    // The worker opens the certificate in its own process and subscribes over mutual TLS.
    worker = await openTestRuntimes(secured.databaseUrl);
    await worker.worker.notifications.publish('ClusterRegistered', { clusterId, name: 'mutual', environmentId: null });
    await waitFor(
      'NOTIFICATIONS and MESSAGE_IO AVAILABLE',
      async () => {
        const items = (await call('GET', `/clusters/${clusterId}/capabilities`)).json.items ?? [];
        const value = (name: string) => items.find((item) => item.capability === name)?.value;
        return value('NOTIFICATIONS') === 'AVAILABLE' && value('MESSAGE_IO') === 'AVAILABLE' ? items : undefined;
      },
      40_000,
    );
  });
});
