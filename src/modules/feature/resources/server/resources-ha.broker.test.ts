// Live-through reads on a real replicated pair: every read goes to the serving primary, and the passive backup is
// never asked — counted at the backup's own door by a proxy in front of its management port. The consumer listed
// is tagged with the logical node the pair shares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHaPair, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { openOwnConsumer } from '@test/named-client.ts';
import { createAnycastQueue, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { type AuthHeaders } from '@test/sign-in.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

const LIVE_READS = [
  'listConsumers',
  'listSessions',
  'listConnections',
  'listProducers',
  'listAddresses',
  'getAddressSettings',
];
let pair: Topology;
let primary: BrokerNode;
let proxies: [CountingProxy, CountingProxy];
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let auth: AuthHeaders;

const get = async (path: string) => {
  const response = await rest(
    new Request(`http://127.0.0.1/api/v1/clusters/${scenario.clusterId}${path}`, { headers: auth }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  pair = await startHaPair();
  const [first, backup] = pair.nodes as [BrokerNode, BrokerNode];
  primary = first;
  proxies = [await startCountingProxy(primary.managementUrl), await startCountingProxy(backup.managementUrl)];
  const proxied = pair.nodes.map((node, index): BrokerNode =>
    Object.assign(Object.create(Object.getPrototypeOf(node) as object) as BrokerNode, node, {
      managementUrl: proxies[index]?.url ?? '',
    }),
  );
  scenario = await startHaScenario('resources-ha', { nodes: proxied, stop: () => pair.stop() }, 1_000);
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'resources-ha-web' });
  ({ runtime: web, rest } = secured);
  ({ auth } = await secured.signedIn());
  await waitFor('the primary serving after an HA pass', async () => {
    const nodes = await web.prisma.clusterNode.findMany({ where: { clusterId: scenario.clusterId } });
    return nodes.some((node) => node.serving) && nodes.some((node) => node.haPolledAt && node.backup)
      ? nodes
      : undefined;
  });
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

describe('live-through reads on a replicated pair', () => {
  it('asks only the serving primary, never the passive backup, and tags rows with the pair’s logical node', async () => {
    const queue = uniqueName('res.ha');
    await createAnycastQueue(primary, queue);
    const consumer = await openOwnConsumer(primary, queue, 'res-ha-client');
    try {
      proxies.forEach((proxy) => proxy.reset());
      const consumers = await waitFor('the consumer on the primary', async () => {
        const answer = await get(`/consumers?queue=${queue}`);
        return (answer.json.total as number) === 1 ? answer.json : undefined;
      });
      const nodes = consumers.nodes as Array<{ nodeName: string; logicalNode: string }>;
      expect(nodes.map((node) => node.nodeName)).toEqual([primary.name]);
      const row = (consumers.items as Array<{ nodeName: string; logicalNode: string; clientId: string }>)[0];
      expect(row).toMatchObject({ nodeName: primary.name, clientId: 'res-ha-client' });
      const registered = await web.prisma.clusterNode.findMany({ where: { clusterId: scenario.clusterId } });
      expect(new Set(registered.map((node) => node.brokerNodeId))).toEqual(new Set([row?.logicalNode]));
      for (const path of ['/sessions', '/connections', '/producers', '/addresses', '/node-facts']) {
        expect((await get(path)).status).toBe(200);
      }
      expect(proxies[0].count(...LIVE_READS)).toBeGreaterThanOrEqual(5);
      expect(proxies[1].count(...LIVE_READS)).toBe(0);
      // The backup's door did see Flotilla (tier A polls its HA state), so a zero above is not a dead proxy.
      await waitFor('a tier-A poll of the backup', () => (proxies[1].posts.length > 0 ? true : undefined));
    } finally {
      await consumer.close();
    }
  });
});
