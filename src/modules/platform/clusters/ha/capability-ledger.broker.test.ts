// The capability ledger stays current from what the worker sees on a real broker, read through the REST API:
// MESSAGE_IO AVAILABLE while the native subscription is up, UNAVAILABLE once the AMQP port is cut by the fault
// proxy and AVAILABLE again when it heals; management read and write confirmed by the scrape and the scheduled
// recheck; a refused management login (wrong stored password) makes MANAGEMENT_READ UNAVAILABLE with the advice.
// The pooled single node behind a proxy of this suite's own: cutting the proxy leaves the shared broker up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topology } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { startFaultProxy, type FaultProxy } from '@test/artemis/fault-proxy.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { type AuthHeaders } from '@test/sign-in.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { sealPassword } from '../server/credentials/password-cipher.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';

const BASE = 'http://127.0.0.1/api/v1';
const single = leaseSingleNode();
// The ledger's details name the node as the pool does.
const NODE_NAME = single.nodes[0]?.name ?? 'no node';
let proxy: FaultProxy;
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let auth: AuthHeaders;

interface LedgerRow {
  capability: string;
  value: string;
  detail: string;
  snippet: string | null;
  checkedAt: string;
  confirmedBy: string;
}

async function get<T>(path: string): Promise<T> {
  const response = await rest(new Request(`${BASE}${path}`, { headers: auth }));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const detail = () => get<{ capabilities: Record<string, string> }>(`/clusters/${scenario.clusterId}`);
const ledger = async () =>
  new Map(
    (await get<{ items: LedgerRow[] }>(`/clusters/${scenario.clusterId}/capabilities`)).items.map((row) => [
      row.capability,
      row,
    ]),
  );

async function ledgerRow(name: string, wanted: (row: LedgerRow) => boolean, what: string): Promise<LedgerRow> {
  return waitFor(
    what,
    async () => {
      const row = (await ledger()).get(name);
      return row && wanted(row) ? row : undefined;
    },
    40_000,
  );
}

beforeAll(async () => {
  const [node] = single.nodes;
  if (!node) throw new Error('no node');
  proxy = await startFaultProxy(node.amqpPort);
  // The cluster is registered with its AMQP URL behind the proxy, so the test can cut the native connection only.
  const proxied: Topology = {
    ...single,
    nodes: [
      Object.assign(Object.create(Object.getPrototypeOf(node) as object) as typeof node, node, {
        amqpUrl: proxy.url('amqp'),
      }),
    ],
  };
  scenario = await startHaScenario('ledger', proxied, 1_000);
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl });
  ({ runtime: web, rest } = secured);
  ({ auth } = await secured.signedIn());
}, 120_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
  await proxy.close();
});

describe('the capability ledger follows what the worker sees', () => {
  it('shows MESSAGE_IO AVAILABLE, confirmed by the native subscription, while it is up', async () => {
    const row = await ledgerRow('MESSAGE_IO', (r) => r.value === 'AVAILABLE', 'MESSAGE_IO AVAILABLE');
    expect(row.confirmedBy).toBe('subscription');
    expect(row.detail).toBe(`native AMQP connection established to ${NODE_NAME}`);
    expect((await detail()).capabilities.MESSAGE_IO).toBe('AVAILABLE');
  });

  it('confirms management read by the scrape and write by the scheduled recheck', async () => {
    const write = await ledgerRow('MANAGEMENT_WRITE', (r) => r.confirmedBy === 'recheck', 'write rechecked');
    expect(write.value).toBe('AVAILABLE');
    const read = await ledgerRow(
      'MANAGEMENT_READ',
      (r) => r.confirmedBy === 'scrape' || r.confirmedBy === 'recheck',
      'read confirmed after registration',
    );
    expect(read.value).toBe('AVAILABLE');
    expect(Date.now() - Date.parse(read.checkedAt)).toBeLessThan(60_000);
  });

  it('turns MESSAGE_IO UNAVAILABLE when the AMQP port is cut, and AVAILABLE again when it heals', async () => {
    const before = scenario.signals.length;
    proxy.setMode({ kind: 'cut' });
    const down = await ledgerRow('MESSAGE_IO', (r) => r.value === 'UNAVAILABLE', 'MESSAGE_IO UNAVAILABLE');
    expect(down.detail).toMatch(new RegExp(`^${NODE_NAME}: no native AMQP connection`));
    expect(down.snippet).toContain('<acceptor');
    expect(down.confirmedBy).toBe('subscription');
    expect((await detail()).capabilities.MESSAGE_IO).toBe('UNAVAILABLE');
    expect(scenario.signals.slice(before)).toContain('health');
    // Management is a different port: the scrape still confirms it.
    expect((await detail()).capabilities.MANAGEMENT_READ).toBe('AVAILABLE');

    proxy.setMode({ kind: 'pass' });
    await ledgerRow('MESSAGE_IO', (r) => r.value === 'AVAILABLE', 'MESSAGE_IO AVAILABLE again');
  });

  it('makes MANAGEMENT_READ UNAVAILABLE with the advice when the broker refuses the stored login', async () => {
    const sealed = sealPassword(processKeys(), { clusterId: scenario.clusterId, password: 'not-the-password' });
    await web.prisma.cluster.update({
      where: { id: scenario.clusterId },
      data: { passwordCipher: sealed.cipher, passwordKeyId: sealed.keyId },
    });
    await scenario.runtimes.worker.notifications.publish('ClusterChanged', {
      clusterId: scenario.clusterId,
      change: 'updated',
    });
    const read = await ledgerRow('MANAGEMENT_READ', (r) => r.value === 'UNAVAILABLE', 'MANAGEMENT_READ UNAVAILABLE');
    expect(read.detail).toMatch(new RegExp(`^${NODE_NAME}: auth-failed: `));
    expect(read.confirmedBy).toBe('scrape');
    expect(read.snippet).toContain('artemis-users.properties');
    const write = (await ledger()).get('MANAGEMENT_WRITE');
    expect(write?.value).toBe('UNAVAILABLE');
  });
});
