// "Where would this message go?" checked against real sends on the run's pooled standalone broker (issue 32, item 5):
// an address with a multicast queue, a filtered queue and a non-exclusive filtered divert to another address with its
// queue; another address with its own queue and an exclusive filtered divert. For a message matching the divert's
// filter and one that does not (and likewise for the exclusive divert) the API is asked, then the message is really
// sent (a core send without a routing type, through the broker's own session: AddressControl.sendMessage), and the
// queues whose message count grew must be exactly those the answer named. Under send-to-dla-on-no-route the same
// check pins the broker's dead-letter rule (Artemis 2.44: only an address with nothing bound dead-letters; bound
// queues that all decline, or an exclusive divert, leave nothing for the dead-letter address). Also: a viewer may
// ask, nothing is audited, a bad question is 400 problem+json. Every name under the lease's prefix; the lease removes
// it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { brokerMbean, jolokiaExec, jolokiaRead } from '@test/jolokia.ts';
import { userWithToken } from '@test/mcp-client.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { callRest, type RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';

const lease = leaseSingleNode();
let database: TestDatabase;
let secured: SecuredRuntime;
let call: RestCall;
let viewer: RestCall;
let clusterId: string;
let node: BrokerNode;

const names = {
  orders: lease.name('wh.orders'),
  all: lease.name('wh.orders-all'),
  eu: lease.name('wh.orders-eu'),
  audit: lease.name('wh.audit'),
  auditQueue: lease.name('wh.audit-q'),
  toAudit: lease.name('wh.to-audit'),
  vip: lease.name('wh.vip'),
  vipQueue: lease.name('wh.vip-q'),
  gold: lease.name('wh.gold'),
  goldQueue: lease.name('wh.gold-q'),
  toGold: lease.name('wh.to-gold'),
  // Under send-to-dla-on-no-route: an address whose unrouted messages go to the dead-letter address.
  unroutedSettings: lease.name('wh.dl.#'),
  unrouted: lease.name('wh.dl.src'),
  unbound: lease.name('wh.dl.unbound'),
  picky: lease.name('wh.dl.picky'),
  toOut: lease.name('wh.dl.to-out'),
  out: lease.name('wh.dl-out'),
  outQueue: lease.name('wh.dl-out-q'),
  dead: lease.name('wh.dead'),
  deadQueue: lease.name('wh.dead-q'),
};

/** Every queue of the scenario with its address and routing type (for its MBean). */
const queues = [
  { name: names.all, address: names.orders, routingType: 'MULTICAST', filter: null },
  { name: names.eu, address: names.orders, routingType: 'MULTICAST', filter: "region = 'EU'" },
  { name: names.auditQueue, address: names.audit, routingType: 'ANYCAST', filter: null },
  { name: names.vipQueue, address: names.vip, routingType: 'MULTICAST', filter: null },
  { name: names.goldQueue, address: names.gold, routingType: 'ANYCAST', filter: null },
  { name: names.picky, address: names.unrouted, routingType: 'MULTICAST', filter: "color = 'red'" },
  { name: names.outQueue, address: names.out, routingType: 'MULTICAST', filter: null },
  { name: names.deadQueue, address: names.dead, routingType: 'ANYCAST', filter: null },
] as const;

interface WhereAnswer {
  nodes: Array<{
    nodeName: string;
    outcome: string;
    receivingQueues: Array<{ name: string; share: string; certain: boolean }>;
    diverted: Array<{ name: string }>;
    notes: Array<{ kind: string }>;
    unknowns: Array<{ kind: string }>;
  }>;
  agree: boolean;
  highlighted: string[];
}

const broker = () => brokerMbean(node.name);
const queueMbean = (queue: (typeof queues)[number]) =>
  `${broker()},component=addresses,address="${queue.address}",subcomponent=queues,routing-type="${queue.routingType.toLowerCase()}",queue="${queue.name}"`;

async function counts(): Promise<Map<string, number>> {
  const entries = await Promise.all(
    queues.map(
      async (queue) => [queue.name, Number(await jolokiaRead(node, queueMbean(queue), 'MessageCount'))] as const,
    ),
  );
  return new Map(entries);
}

/** A real send to the address: a core message without a routing type, string properties, through a broker session. */
async function send(address: string, properties: Record<string, string>): Promise<void> {
  await jolokiaExec(
    node,
    `${broker()},component=addresses,address="${address}"`,
    'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
    [properties, 3, 'where would it go', true, node.user, node.password],
  );
}

async function ask(address: string, properties: Record<string, string>, as: RestCall = call): Promise<WhereAnswer> {
  const answer = await as<WhereAnswer>('POST', `/clusters/${clusterId}/routing/where`, {
    address,
    properties,
    headers: { durable: true },
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json;
}

/** Asks, sends, and checks the queues that grew are exactly the ones the answer named. */
async function askThenSend(address: string, properties: Record<string, string>): Promise<WhereAnswer> {
  const answer = await ask(address, properties);
  const [only] = answer.nodes;
  expect(answer.nodes).toHaveLength(1);
  expect(only?.receivingQueues.every((queue) => queue.share === 'every' && queue.certain)).toBe(true);
  const named = (only?.receivingQueues.map((queue) => queue.name) ?? []).sort();
  const before = await counts();
  await send(address, properties);
  const grown = await waitFor(`the queues ${named.join(', ')} to grow`, async () => {
    const after = await counts();
    const changed = queues
      .map((queue) => queue.name)
      .filter((name) => (after.get(name) ?? 0) > (before.get(name) ?? 0));
    return changed.length >= named.length ? changed : undefined;
  });
  // A little longer, so a queue the answer missed has time to show its message too.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await counts();
  const changed = queues.map((queue) => queue.name).filter((name) => (after.get(name) ?? 0) > (before.get(name) ?? 0));
  expect(changed.sort()).toEqual(named);
  expect(grown.length).toBe(named.length);
  for (const name of changed) expect((after.get(name) ?? 0) - (before.get(name) ?? 0), name).toBe(1);
  return answer;
}

beforeAll(async () => {
  [node] = lease.nodes as [BrokerNode];
  const exec = (operation: string, args: unknown[]) => jolokiaExec(node, broker(), operation, args);
  await exec('addAddressSettings(java.lang.String,java.lang.String)', [
    names.unroutedSettings,
    JSON.stringify({ deadLetterAddress: names.dead, sendToDLAOnNoRoute: true }),
  ]);
  for (const address of [names.orders, names.vip, names.unrouted, names.unbound, names.out])
    await exec('createAddress(java.lang.String,java.lang.String)', [address, 'MULTICAST']);
  for (const address of [names.audit, names.gold, names.dead])
    await exec('createAddress(java.lang.String,java.lang.String)', [address, 'ANYCAST']);
  for (const queue of queues)
    await exec('createQueue(java.lang.String)', [
      JSON.stringify({
        name: queue.name,
        address: queue.address,
        'routing-type': queue.routingType,
        durable: true,
        ...(queue.filter ? { 'filter-string': queue.filter } : {}),
      }),
    ]);
  await exec('createDivert(java.lang.String)', [
    JSON.stringify({
      name: names.toAudit,
      address: names.orders,
      'forwarding-address': names.audit,
      exclusive: false,
      'filter-string': "class IN ('high', 'urgent')",
      'routing-type': 'STRIP',
    }),
  ]);
  await exec('createDivert(java.lang.String)', [
    JSON.stringify({
      name: names.toGold,
      address: names.vip,
      'forwarding-address': names.gold,
      exclusive: true,
      'filter-string': "tier = 'gold'",
      'routing-type': 'ANYCAST',
    }),
  ]);

  await exec('createDivert(java.lang.String)', [
    JSON.stringify({
      name: names.toOut,
      address: names.unrouted,
      'forwarding-address': names.out,
      exclusive: true,
      'filter-string': "route = 'out'",
    }),
  ]);

  database = await createTestDatabase();
  secured = await openSecuredRuntime({ databaseUrl: database.url, instanceId: 'where-web' });
  ({ call } = await secured.signedIn());
  const registered = await call<{ clusterId: string | null }>('POST', '/clusters', {
    name: 'where-cluster',
    environment: 'where-test',
    nodes: [{ managementUrl: node.managementUrl }],
    credentials: { username: node.user, password: node.password },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBe(200);
  clusterId = registered.json.clusterId ?? '';
  const token = await userWithToken(secured.runtime, secured.rest, {
    username: 'where-viewer',
    role: 'viewer',
    tokenName: 'v',
  });
  viewer = (method, path, body) => callRest(secured.rest, { authorization: `Bearer ${token}` }, method, path, body);
}, 60_000);

afterAll(async () => {
  for (const divert of [names.toAudit, names.toGold, names.toOut])
    await jolokiaExec(node, broker(), 'destroyDivert(java.lang.String)', [divert]).catch(() => undefined);
  await secured.close();
  await lease.stop();
  await database.drop();
}, 60_000);

describe('where would it go, against a real send', () => {
  it('names the queues of a message matching the non-exclusive divert’s filter: its copy and the address’s queues', async () => {
    const answer = await askThenSend(names.orders, { region: 'EU', class: 'high' });
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name).sort()).toEqual(
      [names.all, names.auditQueue, names.eu].sort(),
    );
    expect(answer.nodes[0]?.diverted.map((divert) => divert.name)).toEqual([names.toAudit]);
    expect(answer.highlighted).toContain(`forwards:divert:${names.toAudit}->address:${names.audit}`);
  });

  it('names only the address’s unfiltered queue for a message matching neither filter', async () => {
    const answer = await askThenSend(names.orders, { region: 'US', class: 'low' });
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name)).toEqual([names.all]);
    expect(answer.nodes[0]?.diverted).toEqual([]);
  });

  it('lets the matching exclusive divert take the message from its address’s queue', async () => {
    const answer = await askThenSend(names.vip, { tier: 'gold' });
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name)).toEqual([names.goldQueue]);
    expect(answer.nodes[0]?.notes.map((note) => note.kind)).toContain('exclusive-divert');
  });

  it('leaves a message the exclusive divert’s filter does not match on its address’s queue', async () => {
    const answer = await askThenSend(names.vip, { tier: 'silver' });
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name)).toEqual([names.vipQueue]);
  });
});

describe('where would it go when no queue takes it, against a real send (send-to-dla-on-no-route)', () => {
  it('names the dead-letter queue for a message to an address with nothing bound', async () => {
    const answer = await askThenSend(names.unbound, { color: 'blue' });
    expect(answer.nodes[0]).toMatchObject({ outcome: 'dead-lettered', receivingQueues: [{ name: names.deadQueue }] });
    expect(answer.highlighted).toContain(`dead-letter:address:${names.unbound}->address:${names.dead}`);
  });

  it('names no queue for a message the address’s bound queue declines: the broker drops it', async () => {
    const answer = await askThenSend(names.unrouted, { color: 'blue' });
    expect(answer.nodes[0]).toMatchObject({ outcome: 'dropped', receivingQueues: [] });
    expect(answer.nodes[0]?.unknowns.map((note) => note.kind)).toContain('dead-letter');
  });

  it('names the filtered queue when it takes the message', async () => {
    const answer = await askThenSend(names.unrouted, { color: 'red' });
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name)).toEqual([names.picky]);
  });

  it('names only the exclusive divert’s queue: the diverted original is not dead-lettered', async () => {
    const answer = await askThenSend(names.unrouted, { route: 'out', color: 'red' });
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name)).toEqual([names.outQueue]);
  });
});

describe('the where API', () => {
  it('answers a viewer, audits nothing and sends nothing', async () => {
    const auditRows = await secured.runtime.prisma.auditEvent.count();
    const before = await counts();
    const answer = await ask(names.orders, { region: 'EU', class: 'low' }, viewer);
    expect(answer.nodes[0]?.receivingQueues.map((queue) => queue.name).sort()).toEqual([names.all, names.eu].sort());
    expect(await secured.runtime.prisma.auditEvent.count()).toBe(auditRows);
    expect(await counts()).toEqual(before);
  });

  it('refuses a bad question with 400 problem+json', async () => {
    const path = `/clusters/${clusterId}/routing/where`;
    // A control character is refused at the door (the request guard), before the schema.
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ address: '' }, 'validation-failed'],
      [{ address: 'orders\u0000' }, 'invalid-characters'],
      [{ address: names.orders, properties: { 'not a name': 'x' } }, 'validation-failed'],
      [{ address: names.orders, properties: { AND: 'x' } }, 'validation-failed'],
      [{ address: names.orders, routingType: 'BROADCAST' }, 'validation-failed'],
      [{ address: names.orders, headers: { priority: 12 } }, 'validation-failed'],
      [{ address: names.orders, extra: true }, 'validation-failed'],
    ];
    for (const [body, type] of refused) {
      const answer = await call<{ type: string; status: number }>('POST', path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(answer.json.type, JSON.stringify(body)).toBe(type);
    }
  });
});
