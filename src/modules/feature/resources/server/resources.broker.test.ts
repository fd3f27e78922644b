// Live-through resources on a real two-node cluster, scraped and subscribed by the real worker, each node behind a
// proxy that counts the management POSTs reaching it: consumers on both nodes merged with the right node tags and
// the real client's address; one POST per node per uncached read whatever the number of concurrent viewers; a
// closed consumer gone at the next read through the events module's signal; a connection with its sessions and
// consumers; an address filled past its max-size paging in the node facts; and with one node stopped, the other's
// rows with the stopped node named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { openOwnConsumer } from '@test/named-client.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import {
  createAnycastQueue,
  openConsumers,
  sendDurableMessages,
  uniqueName,
  waitFor,
} from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import { parseSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/index.ts';
import { forgetLiveLists } from './live-read.ts';
import { RESOURCES_SETTINGS } from './resources.settings.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

let cluster: Topology;
let nodes: [BrokerNode, BrokerNode];
let proxies: [CountingProxy, CountingProxy];
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;

interface Consumer {
  key: string;
  nodeId: string;
  nodeName: string;
  queue: string;
  sessionId: string;
  connectionId: string | null;
  clientId: string | null;
  remoteAddress: string;
}
interface NodeOutcome {
  nodeId: string;
  nodeName: string;
  ok: boolean;
  failure: { kind: string; advice: string } | null;
}
interface LivePage<Row> {
  items: Row[];
  total: number;
  fetchedAt: string;
  ageMs: number;
  nodes: NodeOutcome[];
}

const consumersOf = async (query: string) => {
  const answer = await call<LivePage<Consumer>>('GET', `/clusters/${scenario.clusterId}/consumers?${query}`);
  expect(answer.status).toBe(200);
  return answer.json;
};

const setSetting = (key: string, value: string) => call('PUT', `/settings/${key}`, { value });

beforeAll(async () => {
  cluster = await startCluster();
  nodes = cluster.nodes as [BrokerNode, BrokerNode];
  proxies = [await startCountingProxy(nodes[0].managementUrl), await startCountingProxy(nodes[1].managementUrl)];
  // Flotilla knows the nodes only through the proxies, so every management call it makes is counted.
  const proxied = nodes.map((node, index): BrokerNode =>
    Object.assign(Object.create(Object.getPrototypeOf(node) as object) as BrokerNode, node, {
      managementUrl: proxies[index]?.url ?? '',
    }),
  );
  scenario = await startHaScenario('resources', { nodes: proxied, stop: () => cluster.stop() }, 1_000);
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'resources-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
  await waitFor(
    'both nodes serving and subscribed',
    async () => {
      const rows = await web.prisma.clusterNodeSubscription.findMany({ where: { clusterId: scenario.clusterId } });
      return rows.filter((row) => row.state === 'established').length === 2 ? rows : undefined;
    },
    60_000,
  );
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

describe('live-through resources on a real cluster', () => {
  it('asks each node once per cache period however many viewers ask at once, and says how old the answer is', async () => {
    expect((await setSetting('resources.cache-ttl', '5m')).status).toBe(200);
    try {
      await waitFor('the new cache period in effect', () =>
        web.settings.duration(RESOURCES_SETTINGS.cacheTtl) === 300_000 ? true : undefined,
      );
      // A change signal (a cluster bridge's session opening, the worker's own connection) rightly drops the cached
      // producers; a measurement that saw one proves nothing and is taken again, from an empty producers entry.
      let changeSignals = 0;
      web.bus.listen(STREAM_CHANNEL, (payload) => {
        const signal = parseSignal(payload);
        if (signal?.clusterId === scenario.clusterId && ['consumers', 'sessions', 'connections'].includes(signal.topic))
          changeSignals += 1;
      });
      let measured: { concurrent: number[]; later: number[]; again: LivePage<unknown> } | undefined;
      for (let attempt = 0; attempt < 5 && !measured; attempt += 1) {
        const signalsBefore = changeSignals;
        await call('GET', `/clusters/${scenario.clusterId}/sessions?pageSize=1`);
        forgetLiveLists(scenario.clusterId, ['producers']);
        proxies.forEach((proxy) => proxy.reset());
        const viewers = await Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            call<LivePage<unknown>>('GET', `/clusters/${scenario.clusterId}/producers?page=${String(1 + (index % 3))}`),
          ),
        );
        expect(viewers.every((viewer) => viewer.status === 200)).toBe(true);
        const concurrent = proxies.map((proxy) => proxy.count('listProducers', 'listSessions'));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const again = await call<LivePage<unknown>>('GET', `/clusters/${scenario.clusterId}/producers`);
        const later = proxies.map((proxy) => proxy.count('listProducers'));
        if (changeSignals === signalsBefore) measured = { concurrent, later, again: again.json };
      }
      if (!measured) throw new Error('every measurement saw a change signal from the brokers');
      // Producers are read with the sessions (for their connection), which were cached already: one POST a node.
      expect(measured.concurrent).toEqual([1, 1]);
      expect(measured.later).toEqual([1, 1]);
      expect(measured.again.ageMs).toBeGreaterThanOrEqual(300);
      expect(Date.parse(measured.again.fetchedAt)).toBeLessThanOrEqual(Date.now() - 300);
    } finally {
      await call('DELETE', '/settings/resources.cache-ttl');
    }
  });

  it('merges the consumers of both nodes, each tagged with its node, with the real client’s address', async () => {
    const queue = uniqueName('res.merge');
    await createAnycastQueue(nodes[0], queue);
    await createAnycastQueue(nodes[1], queue);
    const onFirst = openConsumers(nodes[0], queue, 2);
    const own = await openOwnConsumer(nodes[1], queue, 'res-test-client');
    try {
      const page = await waitFor('three consumers of the queue', async () => {
        const found = await consumersOf(`queue=${queue}`);
        return found.total === 3 ? found : undefined;
      });
      const byNode = (name: string) => page.items.filter((row) => row.nodeName === name);
      expect(byNode(nodes[0].name)).toHaveLength(2);
      expect(byNode(nodes[1].name)).toHaveLength(1);
      const ownRow = byNode(nodes[1].name)[0];
      expect(ownRow?.clientId).toBe('res-test-client');
      expect(ownRow?.remoteAddress).toMatch(new RegExp(`127\\.0\\.0\\.1:${String(own.localPort)}$`));
      expect(ownRow?.connectionId).toBeTruthy();
      expect(new Set(page.items.map((row) => row.key)).size).toBe(3);
      expect(page.nodes.map((node) => node.ok)).toEqual([true, true]);
      // Filters and paging happen over the merged rows.
      const byAddress = await consumersOf(`queue=${queue}&remoteAddress=127.0.0.1:${String(own.localPort)}`);
      expect(byAddress.items.map((row) => row.clientId)).toEqual(['res-test-client']);
      const second = await consumersOf(`queue=${queue}&sort=node&page=2&pageSize=2`);
      expect(second.items).toHaveLength(1);
      expect(second.total).toBe(3);

      // The connection lists its session and the consumer on it.
      const connection = await call<{
        connection: { id: string; nodeName: string };
        sessions: Array<{ connectionId: string }>;
        consumers: Array<{ queue: string }>;
      }>('GET', `/clusters/${scenario.clusterId}/connections/${encodeURIComponent(ownRow?.connectionId ?? '')}`);
      expect(connection.status).toBe(200);
      expect(connection.json.connection.nodeName).toBe(nodes[1].name);
      expect(connection.json.sessions.length).toBeGreaterThan(0);
      expect(connection.json.consumers.map((consumer) => consumer.queue)).toEqual([queue]);
    } finally {
      await own.close();
      await onFirst.close();
    }
  });

  it('drops a closed consumer at the next read through the consumers signal, whatever the cache period', async () => {
    expect((await setSetting('resources.cache-ttl', '5m')).status).toBe(200);
    try {
      await waitFor('the new cache period in effect', () =>
        web.settings.duration(RESOURCES_SETTINGS.cacheTtl) === 300_000 ? true : undefined,
      );
      const queue = uniqueName('res.close');
      await createAnycastQueue(nodes[0], queue);
      const consumer = await openOwnConsumer(nodes[0], queue, 'res-closing');
      await waitFor('the consumer listed', async () =>
        (await consumersOf(`queue=${queue}`)).total === 1 ? true : undefined,
      );
      const signalsBefore = scenario.signals.filter((topic) => topic === 'consumers').length;
      await consumer.close();
      await waitFor('a consumers signal after the close', () =>
        scenario.signals.filter((topic) => topic === 'consumers').length > signalsBefore ? true : undefined,
      );
      const after = await waitFor(
        'the consumer gone',
        async () => {
          const page = await consumersOf(`queue=${queue}`);
          return page.total === 0 ? page : undefined;
        },
        10_000,
      );
      expect(after.ageMs).toBeLessThan(10_000);
    } finally {
      await call('DELETE', '/settings/resources.cache-ttl');
    }
  });

  it('shows an address filled past its max-size as paging in the node’s facts, with a warning', async () => {
    const queue = uniqueName('paged.res');
    await jolokia(nodes[0], {
      type: 'exec',
      mbean: brokerMbean(nodes[0].name),
      operation: 'addAddressSettings(java.lang.String,java.lang.String)',
      arguments: [
        'paged.#',
        JSON.stringify({ maxSizeBytes: 20_480, pageSizeBytes: 4_096, addressFullMessagePolicy: 'PAGE' }),
      ],
    });
    await createAnycastQueue(nodes[0], queue);
    await sendDurableMessages(nodes[0], queue, 200);
    interface Facts {
      nodes: Array<{
        nodeName: string;
        ok: boolean;
        version: string | null;
        uptimeMs: number | null;
        journalType: string | null;
        memory: { maxBytes: number | null };
        disk: { maxPercent: number | null };
        pagingAddresses: Array<{ name: string; pages: number }>;
        warnings: Array<{ code: string; message: string }>;
      }>;
      ageMs: number;
    }
    const facts = await waitFor('the address paging', async () => {
      const answer = await call<Facts>('GET', `/clusters/${scenario.clusterId}/node-facts`);
      const first = answer.json.nodes.find((node) => node.nodeName === nodes[0].name);
      return first?.pagingAddresses.some((address) => address.name === queue) ? answer.json : undefined;
    });
    const first = facts.nodes.find((node) => node.nodeName === nodes[0].name);
    expect(first?.version).toMatch(/^2\.\d+/);
    expect(first?.uptimeMs).toBeGreaterThan(0);
    expect(first?.journalType).toBeTruthy();
    expect(first?.memory.maxBytes).toBeGreaterThan(0);
    expect(first?.disk.maxPercent).toBeGreaterThan(0);
    expect(first?.warnings.find((warning) => warning.code === 'paging')?.message).toContain(queue);
    // The address list says the same, and its settings in effect carry the limit.
    const address = await call<{
      nodes: Array<{ nodeName: string; paging: boolean; settings: { maxSizeBytes?: unknown } }>;
    }>('GET', `/clusters/${scenario.clusterId}/addresses/${encodeURIComponent(queue)}`);
    const onFirst = address.json.nodes.find((node) => node.nodeName === nodes[0].name);
    expect(onFirst?.paging).toBe(true);
    expect(String(onFirst?.settings.maxSizeBytes)).toBe('20480');
  });

  it('with one node stopped, lists the other’s rows and names the stopped node with its reason', async () => {
    const queue = uniqueName('res.half');
    await createAnycastQueue(nodes[0], queue);
    const survivor = openConsumers(nodes[0], queue, 1);
    try {
      await nodes[1].stop();
      const page = await waitFor(
        'the stopped node named',
        async () => {
          const found = await consumersOf(`queue=${queue}`);
          return found.nodes.some((node) => !node.ok) ? found : undefined;
        },
        30_000,
      );
      expect(page.items.map((row) => row.nodeName)).toEqual([nodes[0].name]);
      const stopped = page.nodes.find((node) => !node.ok);
      expect(stopped?.nodeName).toBe(nodes[1].name);
      expect(stopped?.failure?.kind).toMatch(/unreachable|timeout/);
      expect(stopped?.failure?.advice.length).toBeGreaterThan(20);
    } finally {
      await survivor.close();
    }
  });

  it('answers the classified problem with the ledger’s advice when every node fails', async () => {
    await nodes[0].stop();
    const answer = await waitFor('every node failing', async () => {
      const found = await call<{ type: string; status: number; nodes: NodeOutcome[]; configSnippet: string | null }>(
        'GET',
        `/clusters/${scenario.clusterId}/connections`,
      );
      return found.status === 502 ? found : undefined;
    });
    expect(answer.json.type).toBe('live-read-failed');
    expect(answer.json.nodes.map((node) => node.ok)).toEqual([false, false]);
    expect(answer.json.configSnippet).toBeTruthy();
  });
});
