// Divert create and remove on the run's pooled two-node cluster, as an operator and a viewer use them over REST
// (issue 32, item 4): a dry run changes nothing and makes no write at either broker's door; a create lands on both
// nodes (read back over Jolokia) with its audit row; a duplicate is 409, a forwarding address on the broker's
// notifications is 400 with nothing created, a viewer is 403 with nothing done; the list shows a divert made on one
// node behind Flotilla's back as missing on the other, and a create then adds it only there; a remove previews, then
// removes from both, and a second remove is 404. Every address under the lease's prefix; the diverts removed after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseCluster } from '@test/artemis/lease.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { brokerMbean, jolokiaExec, jolokiaRead } from '@test/jolokia.ts';
import { userWithToken } from '@test/mcp-client.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { callRest, type RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';

const lease = leaseCluster();
let database: TestDatabase;
let secured: SecuredRuntime;
let call: RestCall;
let viewer: RestCall;
let clusterId: string;
let nodes: [BrokerNode, BrokerNode];
const proxies: CountingProxy[] = [];

const names = {
  orders: lease.name('dv.orders'),
  copies: lease.name('dv.copies'),
  copy: lease.name('dv.copy'),
  half: lease.name('dv.half'),
  reserved: lease.name('dv.reserved'),
  viewers: lease.name('dv.viewers'),
};

interface NodeResult {
  nodeName: string;
  outcome: string;
}
interface CommandResult {
  auditId: string;
  action: string;
  dryRun: boolean;
  outcome: string;
  nodes: NodeResult[];
}
interface Problem {
  type: string;
  status: number;
  detail: string;
}
interface DivertList {
  items: {
    name: string;
    forwardingAddress: string;
    presentOn: { nodeName: string }[];
    missingOn: { nodeName: string }[];
  }[];
  total: number;
  readAt: string;
  nodes: { nodeName: string }[];
  failures: unknown[];
}

const diverts = () => `/clusters/${clusterId}/diverts`;
const broker = (node: BrokerNode) => brokerMbean(node.name);
const divertNames = async (node: BrokerNode) => (await jolokiaRead(node, broker(node), 'DivertNames')) as string[];
const divertAttributes = (node: BrokerNode, address: string, name: string) =>
  jolokiaRead(node, `${broker(node)},component=addresses,address="${address}",subcomponent=diverts,divert="${name}"`, [
    'ForwardingAddress',
    'Exclusive',
    'Filter',
    'RoutingType',
  ]) as Promise<Record<string, unknown>>;
/** Management writes of diverts that reached either broker since the proxies were last reset. */
const divertWrites = () => proxies.reduce((sum, proxy) => sum + proxy.count('createDivert', 'destroyDivert'), 0);
const outcomes = (result: CommandResult) =>
  Object.fromEntries(result.nodes.map((node) => [node.nodeName, node.outcome]));
const bothAre = (outcome: string) => Object.fromEntries(nodes.map((node) => [node.name, outcome]));

const copyDivert = {
  name: names.copy,
  address: names.orders,
  forwardingAddress: names.copies,
  exclusive: true,
  filter: "region = 'EU'",
  routingType: 'ANYCAST',
};

async function listed(query: string, until: (list: DivertList) => boolean): Promise<DivertList> {
  return waitFor(`the diverts list (${query})`, async () => {
    const answer = await call<DivertList>('GET', `${diverts()}?${query}`);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return until(answer.json) ? answer.json : undefined;
  });
}

beforeAll(async () => {
  nodes = [...lease.nodes].sort((a, b) => a.name.localeCompare(b.name)) as [BrokerNode, BrokerNode];
  database = await createTestDatabase();
  secured = await openSecuredRuntime({ databaseUrl: database.url, instanceId: 'diverts-web' });
  ({ call } = await secured.signedIn());
  for (const node of nodes) proxies.push(await startCountingProxy(node.managementUrl));
  const registered = await call<{ clusterId: string | null }>('POST', '/clusters', {
    name: 'diverts-cluster',
    environment: 'diverts-test',
    nodes: proxies.map((proxy) => ({ managementUrl: proxy.url })),
    credentials: { username: nodes[0].user, password: nodes[0].password },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBe(200);
  clusterId = registered.json.clusterId ?? '';
  const token = await userWithToken(secured.runtime, secured.rest, {
    username: 'dv-viewer',
    role: 'viewer',
    tokenName: 'v',
  });
  viewer = (method, path, body) => callRest(secured.rest, { authorization: `Bearer ${token}` }, method, path, body);
}, 60_000);

afterAll(async () => {
  for (const node of lease.nodes)
    for (const name of Object.values(names))
      await jolokiaExec(node, broker(node), 'destroyDivert(java.lang.String)', [name]).catch(() => undefined);
  for (const proxy of proxies) await proxy.close();
  await secured.close();
  await lease.stop();
  await database.drop();
}, 60_000);

describe('divert create and remove on a two-node cluster', () => {
  it('a dry run answers per node, is audited as one, and makes no write at either broker', async () => {
    proxies.forEach((proxy) => proxy.reset());
    const answer = await call<CommandResult>('POST', diverts(), { ...copyDivert, dryRun: true });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ action: 'divert.create', dryRun: true, outcome: 'WOULD_APPLY' });
    expect(outcomes(answer.json)).toEqual(bothAre('WOULD_APPLY'));
    expect(divertWrites()).toBe(0);
    for (const node of nodes) expect(await divertNames(node)).not.toContain(names.copy);
    const row = await secured.runtime.prisma.auditEvent.findUniqueOrThrow({ where: { id: answer.json.auditId } });
    expect(row).toMatchObject({ action: 'divert.create', target: names.copy, dryRun: true, outcome: 'SUCCEEDED' });
  });

  it('creates the divert on both nodes, audited with its parameters, as the brokers read it back', async () => {
    const answer = await call<CommandResult>('POST', diverts(), copyDivert);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).toMatchObject({ dryRun: false, outcome: 'SUCCEEDED' });
    expect(outcomes(answer.json)).toEqual(bothAre('APPLIED'));
    for (const node of nodes) {
      expect(await divertNames(node), node.name).toContain(names.copy);
      expect(await divertAttributes(node, names.orders, names.copy), node.name).toMatchObject({
        ForwardingAddress: names.copies,
        Exclusive: true,
        Filter: "region = 'EU'",
        RoutingType: 'ANYCAST',
      });
    }
    const row = await secured.runtime.prisma.auditEvent.findUniqueOrThrow({ where: { id: answer.json.auditId } });
    expect(row).toMatchObject({ action: 'divert.create', target: names.copy, dryRun: false, outcome: 'SUCCEEDED' });
    expect(row.parameters).toEqual({
      address: names.orders,
      forwardingAddress: names.copies,
      exclusive: true,
      filter: "region = 'EU'",
      routingType: 'ANYCAST',
    });
    expect(row.startedAt.getTime()).toBeLessThanOrEqual(row.finishedAt?.getTime() ?? 0);

    const list = await listed(`q=${encodeURIComponent(names.copy)}`, (found) => found.total === 1);
    expect(list.items[0]?.presentOn.map((node) => node.nodeName)).toEqual(nodes.map((node) => node.name));
    expect(list.items[0]?.missingOn).toEqual([]);
  });

  it('refuses the same divert again with 409, writing nothing', async () => {
    proxies.forEach((proxy) => proxy.reset());
    const answer = await call<Problem>('POST', diverts(), copyDivert);
    expect(answer.status, JSON.stringify(answer.json)).toBe(409);
    expect(answer.json.type).toBe('divert-exists');
    expect(divertWrites()).toBe(0);
  });

  it('refuses a forwarding address on the broker’s notifications with 400, before any audit row or write', async () => {
    proxies.forEach((proxy) => proxy.reset());
    const answer = await call<Problem & { destination: string }>('POST', diverts(), {
      name: names.reserved,
      address: names.orders,
      forwardingAddress: 'activemq.notifications',
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    expect(answer.json).toMatchObject({ type: 'destination-reserved', destination: 'activemq.notifications' });
    expect(divertWrites()).toBe(0);
    for (const node of nodes) expect(await divertNames(node)).not.toContain(names.reserved);
    expect(await secured.runtime.prisma.auditEvent.count({ where: { target: names.reserved } })).toBe(0);
  });

  it('answers a viewer 403 on create and remove, and does nothing; the list is theirs to read, masked', async () => {
    proxies.forEach((proxy) => proxy.reset());
    const created = await viewer<Problem>('POST', diverts(), { ...copyDivert, name: names.viewers });
    expect(created.status, JSON.stringify(created.json)).toBe(403);
    const removed = await viewer<Problem>('DELETE', `${diverts()}/${encodeURIComponent(names.copy)}`);
    expect(removed.status, JSON.stringify(removed.json)).toBe(403);
    expect(divertWrites()).toBe(0);
    for (const node of nodes) {
      expect(await divertNames(node)).not.toContain(names.viewers);
      expect(await divertNames(node)).toContain(names.copy);
    }
    expect((await viewer('GET', `${diverts()}?q=${encodeURIComponent(names.copy)}`)).status).toBe(200);
    // Names and filters in clear need message:clear, which a viewer lacks.
    const clear = await viewer<Problem>('GET', `${diverts()}?clear=true`);
    expect(clear.status, JSON.stringify(clear.json)).toBe(403);
  });

  it('marks a divert one node lacks, and a create adds it only there', async () => {
    const [first, second] = nodes;
    await jolokiaExec(first, broker(first), 'createDivert(java.lang.String)', [
      JSON.stringify({
        name: names.half,
        address: names.orders,
        'forwarding-address': names.copies,
        'routing-type': 'STRIP',
      }),
    ]);
    const list = await listed(`q=${encodeURIComponent(names.half)}`, (found) => found.total === 1);
    expect(list.items[0]?.presentOn.map((node) => node.nodeName)).toEqual([first.name]);
    expect(list.items[0]?.missingOn.map((node) => node.nodeName)).toEqual([second.name]);

    const answer = await call<CommandResult>('POST', diverts(), {
      name: names.half,
      address: names.orders,
      forwardingAddress: names.copies,
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(outcomes(answer.json)).toEqual({ [first.name]: 'NOT_PRESENT', [second.name]: 'APPLIED' });
    expect(await divertNames(second)).toContain(names.half);
    const mended = await listed(
      `q=${encodeURIComponent(names.half)}`,
      (found) => found.items[0]?.missingOn.length === 0,
    );
    expect(mended.items[0]?.presentOn).toHaveLength(2);
  });

  it('removes a divert: the dry run changes nothing, the run removes it from both, and again is 404', async () => {
    const path = `${diverts()}/${encodeURIComponent(names.copy)}`;
    proxies.forEach((proxy) => proxy.reset());
    const preview = await call<CommandResult>('DELETE', `${path}?dryRun=true`);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json).toMatchObject({ action: 'divert.remove', dryRun: true, outcome: 'WOULD_APPLY' });
    expect(outcomes(preview.json)).toEqual(bothAre('WOULD_APPLY'));
    expect(divertWrites()).toBe(0);
    for (const node of nodes) expect(await divertNames(node)).toContain(names.copy);

    const removed = await call<CommandResult>('DELETE', path);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(outcomes(removed.json)).toEqual(bothAre('APPLIED'));
    for (const node of nodes) expect(await divertNames(node)).not.toContain(names.copy);
    const row = await secured.runtime.prisma.auditEvent.findUniqueOrThrow({ where: { id: removed.json.auditId } });
    expect(row).toMatchObject({ action: 'divert.remove', target: names.copy, outcome: 'SUCCEEDED' });
    // Enough in the row to create it again.
    expect(row.parameters).toMatchObject({ address: names.orders, forwardingAddress: names.copies, exclusive: true });

    const again = await call<Problem>('DELETE', path);
    expect(again.status, JSON.stringify(again.json)).toBe(404);
    expect(again.json.type).toBe('divert-not-found');
    const list = await listed(`q=${encodeURIComponent(names.copy)}`, (found) => found.total === 0);
    expect(list.items).toEqual([]);
  });
});
