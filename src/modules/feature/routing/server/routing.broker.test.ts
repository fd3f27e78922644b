// The routing graph on the run's pooled two-node cluster, over REST as an operator reads it (issue 32, items 1 and 5):
// the cluster registered from its nodes' management URLs behind counting proxies; an address with two queues (one
// filtered), a divert on one node only and a dead-letter address from the address settings; the graph holds them,
// marks the divert missing on the other node, draws binds, diverts, forwards, dead-letter and balances edges, filters
// by address pattern, answers tooLarge with counts only under a low routing.max-graph-items, answers an unknown
// cluster as it answers one the caller has no grant on, and live-read-failed when no node answers. A read takes two
// POSTs per node, and a second read within routing.cache-ttl none. Names under the lease's prefix; the divert and
// settings removed afterwards.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseCluster } from '@test/artemis/lease.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { brokerMbean, jolokiaExec } from '@test/jolokia.ts';
import { callRest, type RestAnswer, type RestCall } from '@test/rest-call.ts';
import { userWithToken } from '@test/mcp-client.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { storeSettings } from '@test/worker-kit.ts';

const lease = leaseCluster();
let database: TestDatabase;
let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;
/** The node holding the divert, and the one lacking it. */
let holder: BrokerNode;
let lacking: BrokerNode;
const proxies = new Map<string, CountingProxy>();

const names = {
  settings: lease.name('rt.#'),
  orders: lease.name('rt.orders'),
  big: lease.name('rt.orders.big'),
  copies: lease.name('rt.copies'),
  copy: lease.name('rt.copy'),
  dla: lease.name('rt.dla'),
  // Outside rt.#: the filter tests count that pattern's items.
  cards: lease.name('cards'),
};
const CARD = '4111 1111 1111 1111';

interface Item {
  id: string;
  kind: string;
  name: string;
  facts: Record<string, unknown>;
  presentOn: string[];
  missingOn: string[];
  differs: string[];
}
interface Edge {
  id: string;
  kind: string;
  from: string;
  to: string;
  presentOn: string[];
  missingOn: string[];
}
interface GraphAnswer {
  graph: { nodes: { nodeId: string; nodeName: string }[]; items: Item[]; edges: Edge[] };
  readAt: string;
  nodes: { nodeId: string; nodeName: string; ok: boolean; failure: unknown }[];
  counts: Record<string, number>;
  tooLarge: boolean;
  maxItems: number;
}

const broker = (node: BrokerNode) => brokerMbean(node.name);
const routing = (query = '') => `/clusters/${clusterId}/routing/graph${query}`;
const withPattern = (pattern: string) => routing(`?pattern=${encodeURIComponent(pattern)}`);

async function graph(path = routing()): Promise<GraphAnswer> {
  const answer: RestAnswer<GraphAnswer> = await call<GraphAnswer>('GET', path);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json;
}

async function createQueue(node: BrokerNode, queue: Record<string, unknown>): Promise<void> {
  await jolokiaExec(node, broker(node), 'createQueue(java.lang.String,boolean)', [
    JSON.stringify({ 'routing-type': 'ANYCAST', durable: true, ...queue }),
    true,
  ]);
}

/** The node ids by broker name, as the cluster registered them. */
async function nodeIds(): Promise<Map<string, string>> {
  const rows = await secured.runtime.prisma.clusterNode.findMany({ where: { clusterId } });
  return new Map(rows.map((row) => [row.brokerName ?? '', row.id]));
}

beforeAll(async () => {
  database = await createTestDatabase();
  // Every read asks the brokers, until a test asks for the cache.
  await storeSettings(database.url, { 'routing.cache-ttl': '0s', 'scrape.tier-a-interval': '1h' });
  secured = await openSecuredRuntime({ databaseUrl: database.url, instanceId: 'routing-web' });
  ({ call } = await secured.signedIn());
  for (const node of lease.nodes) proxies.set(node.name, await startCountingProxy(node.managementUrl));
  const [seed, other] = lease.nodes as [BrokerNode, BrokerNode];
  const registered = await call<{ clusterId: string | null }>('POST', '/clusters', {
    name: 'routing-cluster',
    environment: 'routing-test',
    nodes: [seed, other].map((node) => ({ managementUrl: proxies.get(node.name)?.url })),
    credentials: { username: seed.user, password: seed.password },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBe(200);
  clusterId = registered.json.clusterId ?? '';
  [holder, lacking] = [seed, other];

  for (const node of lease.nodes) {
    await jolokiaExec(node, broker(node), 'addAddressSettings(java.lang.String,java.lang.String)', [
      names.settings,
      JSON.stringify({ deadLetterAddress: names.dla, maxDeliveryAttempts: 3 }),
    ]);
    await createQueue(node, { name: names.orders, address: names.orders });
    await createQueue(node, { name: names.big, address: names.orders, 'filter-string': 'size > 10' });
    await createQueue(node, { name: names.copies, address: names.copies });
    await createQueue(node, { name: names.dla, address: names.dla });
    await createQueue(node, { name: names.cards, address: names.cards, 'filter-string': `card = '${CARD}'` });
  }
  await jolokiaExec(holder, broker(holder), 'createDivert(java.lang.String)', [
    JSON.stringify({ name: names.copy, address: names.orders, 'forwarding-address': names.copies, exclusive: false }),
  ]);
}, 120_000);

afterAll(async () => {
  for (const node of lease.nodes)
    await jolokiaExec(node, broker(node), 'destroyDivert(java.lang.String)', [names.copy]).catch(() => undefined);
  await secured.close();
  for (const proxy of proxies.values()) await proxy.close();
  await lease.stop();
  await database.drop();
}, 60_000);

describe('the routing graph of a two-node cluster', () => {
  it('holds the address, its queues and the divert, marked missing on the node without it', async () => {
    const answer = await graph();
    const ids = await nodeIds();
    const holderId = ids.get(holder.name) ?? '';
    const lackingId = ids.get(lacking.name) ?? '';
    expect(answer.nodes.map((node) => [node.nodeId, node.ok]).sort()).toEqual(
      [
        [holderId, true],
        [lackingId, true],
      ].sort(),
    );
    expect(answer.tooLarge).toBe(false);
    const item = (id: string) => answer.graph.items.find((one) => one.id === id);
    expect(item(`address:${names.orders}`)).toMatchObject({ missingOn: [], differs: [] });
    expect(item(`address:${names.orders}`)?.facts).toMatchObject({ deadLetterAddress: names.dla, internal: false });
    expect(item(`queue:${names.orders}`)?.facts).toMatchObject({ address: names.orders, filter: null });
    expect(item(`queue:${names.big}`)?.facts).toMatchObject({ address: names.orders, filter: 'size > 10' });
    expect(item(`queue:${names.big}`)?.presentOn.sort()).toEqual([holderId, lackingId].sort());
    expect(item(`divert:${names.copy}`)).toMatchObject({
      presentOn: [holderId],
      missingOn: [lackingId],
      facts: { address: names.orders, forwardingAddress: names.copies, exclusive: false },
    });

    const edge = (id: string) => answer.graph.edges.find((one) => one.id === id);
    expect(edge(`binds:address:${names.orders}->queue:${names.orders}`)?.missingOn).toEqual([]);
    expect(edge(`binds:address:${names.orders}->queue:${names.big}`)?.missingOn).toEqual([]);
    expect(edge(`diverts:address:${names.orders}->divert:${names.copy}`)).toMatchObject({
      presentOn: [holderId],
      missingOn: [lackingId],
    });
    expect(edge(`forwards:divert:${names.copy}->address:${names.copies}`)?.missingOn).toEqual([lackingId]);
    expect(edge(`dead-letter:address:${names.orders}->address:${names.dla}`)?.missingOn).toEqual([]);
    // The pool's nodes are clustered: their cluster connection balances the suite's address on both.
    const balances = answer.graph.edges.filter(
      (one) => one.kind === 'balances' && one.to === `address:${names.orders}`,
    );
    expect(balances.length).toBeGreaterThan(0);
    expect(balances.every((one) => one.missingOn.length === 0)).toBe(true);
    expect(answer.counts.clusterConnections).toBeGreaterThan(0);
  });

  it('filters by address pattern: the matched address, what it routes to, and nothing of other suites', async () => {
    const answer = await graph(withPattern(names.orders));
    const ids = answer.graph.items.map((item) => item.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        `address:${names.orders}`,
        `queue:${names.orders}`,
        `queue:${names.big}`,
        `divert:${names.copy}`,
        `address:${names.copies}`,
        `queue:${names.copies}`,
        `address:${names.dla}`,
        `queue:${names.dla}`,
      ]),
    );
    // Beyond the suite's own names only what they route to: the expiry address the broker's "#" settings give.
    const expiry = answer.graph.items.find((item) => item.id === `address:${names.orders}`)?.facts.expiryAddress;
    const others = answer.graph.items.filter(
      (item) => (item.kind === 'address' || item.kind === 'queue') && !item.name.startsWith(lease.prefix),
    );
    expect(others.every((item) => item.name === expiry || item.facts.address === expiry)).toBe(true);
    expect(answer.graph.edges.some((edge) => edge.kind === 'expiry' && edge.to === `address:${String(expiry)}`)).toBe(
      expiry !== null,
    );
    const suites = (graphAnswer: GraphAnswer, kind: string) =>
      graphAnswer.graph.items.filter((item) => item.kind === kind && item.name.startsWith(lease.prefix)).length;
    expect([suites(answer, 'address'), suites(answer, 'queue'), suites(answer, 'divert')]).toEqual([3, 4, 1]);

    const wildcard = await graph(withPattern(`${lease.prefix}rt.#`));
    expect([suites(wildcard, 'address'), suites(wildcard, 'queue'), suites(wildcard, 'divert')]).toEqual([3, 4, 1]);
    expect(wildcard.counts.diverts).toBe(1);
    const none = await graph(withPattern(lease.name('nothing.here')));
    expect(none.graph.items).toEqual([]);
  });

  it('hands out filters through the content policy: a card number in a queue filter is masked', async () => {
    const answer = await graph(withPattern(names.cards));
    const filter = answer.graph.items.find((item) => item.id === `queue:${names.cards}`)?.facts.filter;
    expect(typeof filter).toBe('string');
    expect(filter).not.toContain(CARD);
    expect(filter).toContain('1111');
  });

  it('refuses a bad pattern with a problem, and answers an unknown cluster like one without a grant', async () => {
    const control = await call('GET', routing(`?pattern=${encodeURIComponent('a\u0007b')}`));
    expect(control.status).toBe(400);
    expect(control.json.type).toBe('validation-failed');
    const long = await call('GET', withPattern('a'.repeat(300)));
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.json)).toContain('at most 255');

    const unknown = await call('GET', `/clusters/${randomUUID()}/routing/graph`);
    expect(unknown.status).toBe(404);
    const username = `routing-stranger-${randomUUID().slice(0, 8)}`;
    const token = await userWithToken(secured.runtime, secured.rest, {
      username,
      role: 'viewer',
      tokenName: 'stranger',
    });
    // The viewer's grant reaches another cluster only.
    const strangerUser = await secured.runtime.prisma.user.findFirstOrThrow({
      where: { username },
    });
    await secured.runtime.prisma.grant.updateMany({
      where: { userId: strangerUser.id },
      data: { scopeKind: 'CLUSTER', scopeId: randomUUID() },
    });
    const stranger = await callRest(secured.rest, { authorization: `Bearer ${token}` }, 'GET', routing());
    expect(stranger.status).toBe(404);
    const said = (json: Record<string, unknown>) => [json.type, json.title, json.status, json.detail];
    expect(said(stranger.json)).toEqual(said(unknown.json));
    expect(unknown.json.type).toBe('cluster-not-found');
  });

  it('answers tooLarge with the counts alone when the graph holds more than routing.max-graph-items', async () => {
    const filtered = (await graph(withPattern(names.copies))).graph.items.length;
    const whole = (await graph()).graph.items.length;
    expect(whole).toBeGreaterThan(filtered);
    const put = await call('PUT', '/settings/routing.max-graph-items', { value: filtered });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    try {
      const large = await graph();
      expect(large.tooLarge).toBe(true);
      expect(large.maxItems).toBe(filtered);
      expect(large.graph.items).toEqual([]);
      expect(large.graph.edges).toEqual([]);
      expect(large.counts.queues).toBeGreaterThanOrEqual(4);
      expect(large.counts.diverts).toBeGreaterThanOrEqual(1);
      // The filter the screen then asks for is answered whole.
      const small = await graph(withPattern(names.copies));
      expect(small.tooLarge).toBe(false);
      expect(small.graph.items.map((item) => item.id)).toContain(`queue:${names.copies}`);
    } finally {
      await call('PUT', '/settings/routing.max-graph-items', { value: 10_000 });
    }
  });

  it('reads each node in at most two management POSTs, and not at all again within routing.cache-ttl', async () => {
    // routing.cache-ttl is 0s here: every read asks the brokers.
    for (const proxy of proxies.values()) proxy.reset();
    await graph();
    const posts = [...proxies.values()].map((proxy) => proxy.firstAsks().length);
    expect(posts).toEqual([2, 2]);
    const put = await call('PUT', '/settings/routing.cache-ttl', { value: '1m' });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    try {
      await graph();
      for (const proxy of proxies.values()) proxy.reset();
      await graph(withPattern(names.orders));
      await graph();
      expect([...proxies.values()].map((proxy) => proxy.posts.length)).toEqual([0, 0]);
    } finally {
      await call('PUT', '/settings/routing.cache-ttl', { value: '0s' });
    }
  });

  it('answers live-read-failed, naming each node, when no node answers (the last test: it closes the proxies)', async () => {
    for (const proxy of proxies.values()) await proxy.close();
    const failed = await call<{ type: string; status: number; nodes: { nodeName: string }[] }>('GET', routing());
    expect(failed.status, JSON.stringify(failed.json)).toBe(502);
    expect(failed.json.type).toBe('live-read-failed');
    expect(failed.json.nodes.map((node) => node.nodeName).sort()).toEqual(lease.nodes.map((node) => node.name).sort());
  });
});
