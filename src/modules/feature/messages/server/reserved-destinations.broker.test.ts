// A send or a move never reaches the broker’s own management: on real brokers, through REST, tRPC and the MCP SDK
// client, every built-in role is refused a send to the management address (a management request that would add a
// broker user), to the notification address (a forged broker event), to internal addresses, and with the broker's
// reserved properties; a move and a retry into them are refused too; nothing is audited as sent, and the broker's
// user list, read over Jolokia directly, has no new user. A second broker configured with its own management and
// notification addresses shows they are read from the broker, not assumed. No queue or address is created on them
// and none of the broker's own queues is deleted, purged or paused; a retry leaves a message whose original address
// or queue was forged to a reserved one where it is; and on the second broker Flotilla's events arrive from its own
// notification address, whose queues stay out of the grid.
// The plain broker is the pool's leased single node (the custom one, with its broker.xml edits, is the suite's own):
// the suite's queues and the users its forged requests would add are under the lease's prefix. What must sit
// outside the prefix to mean anything (a `$sys.` queue, the custom broker's management address sent to as an ordinary
// one) is removed by this suite when it ends; the lease removes its tap on activemq.notifications, named under it.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { sendAnnotatedOverAmqp } from '@test/amqp-annotated.ts';
import { saveCluster, startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { brokerMbean, jolokia, jolokiaExec, jolokiaRead } from '@test/jolokia.ts';
import { connectMcp, issueToken, serveOverHttp, type Listener } from '@test/mcp-client.ts';
import { createAnycastQueue, endpointOf, messageCount, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { callRest } from '@test/rest-call.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { BUILT_IN_ROLES, type BuiltInRole } from '@/modules/kernel/plugin/index.ts';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import { createMcpHandler } from '@/server/http/mcp-route.ts';
import { createTrpcHandler } from '@/server/http/trpc-route.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

const CUSTOM = { management: 'ops.mgmt', notification: 'ops.events' };

const plainBroker = leaseSingleNode();
/** A name of this suite's own: unique, under the lease's prefix. */
const named = (base: string) => plainBroker.name(uniqueName(base));
/** Queues (and addresses) the suite makes on the pooled node outside its prefix, removed when it ends. */
const outsidePrefix = { queues: new Set<string>(), addresses: new Set<string>() };
let customBroker: Topology;
let plain: BrokerNode;
let scenario: HaScenario;
let customClusterId: string;
let secured: SecuredRuntime;
let web: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let listener: Listener;
const people = new Map<BuiltInRole, { auth: AuthHeaders; mcp: Client }>();

/** A local user holding one built-in role everywhere, signed in over REST and connected over MCP with a token. */
async function person(role: BuiltInRole) {
  const username = `${role}-${randomUUID().slice(0, 8)}`;
  const password = `${username} long enough password`;
  const userId = randomUUID();
  await web.prisma.user.create({
    data: { id: userId, username, providerId: 'local', passwordHash: await hashPassword(password) },
  });
  const roleRow = await web.prisma.role.findFirstOrThrow({ where: { name: role } });
  await web.prisma.grant.create({
    data: { id: randomUUID(), roleId: roleRow.id, principal: 'USER', userId, scopeKind: 'GLOBAL' },
  });
  const auth = await signIn(rest, 'http://127.0.0.1', { username, password });
  return { auth, mcp: await connectMcp(listener.url, await issueToken(rest, auth, `${username}-agent`)) };
}

const who = (role: BuiltInRole) => {
  const found = people.get(role);
  if (!found) throw new Error(`no ${role}`);
  return found;
};

const sendAs = (role: BuiltInRole, clusterId: string, body: object) =>
  callRest(rest, who(role).auth, 'POST', `/clusters/${clusterId}/messages/send`, body);

/** What an agent gets back: the tool's text, or the protocol error's message. */
async function toolAs(role: BuiltInRole, name: string, args: Record<string, unknown>) {
  try {
    const result = await who(role).mcp.callTool({ name, arguments: args });
    const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
    return { ok: result.isError !== true, text };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error) };
  }
}

/** The management request that adds a broker user with the `amq` role (what the finding did). */
const addUserRequest = (address: string, user: string) => ({
  address,
  body: { type: 'text', text: JSON.stringify([user, 'stolen-password-1', 'amq', true]) },
  properties: {
    _AMQ_ResourceName: { type: 'string', value: 'broker' },
    _AMQ_OperationName: { type: 'string', value: 'addUser' },
  },
});

async function brokerUsers(node: BrokerNode): Promise<string[]> {
  const listed = (await jolokiaExec(node, brokerMbean(node.name), 'listUser(java.lang.String)', [''])) as string;
  return (JSON.parse(listed) as Array<{ username: string }>).map((user) => user.username);
}

async function inGrid(clusterId: string, queue: string) {
  const { auth } = who('admin');
  await waitFor(
    `${queue} in the grid`,
    async () => {
      const { status } = await callRest(
        rest,
        auth,
        'GET',
        `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}`,
      );
      return status === 200 ? true : undefined;
    },
    30_000,
  );
}

beforeAll(async () => {
  customBroker = await startSingleNode({
    name: 'custom',
    brokerXmlEdits: (xml) =>
      xml.replace(
        /(<core [^>]*>)/,
        `$1\n<management-address>${CUSTOM.management}</management-address>\n` +
          `<management-notification-address>${CUSTOM.notification}</management-notification-address>`,
      ),
  });
  plain = plainBroker.nodes[0] as BrokerNode;
  scenario = await startHaScenario('reserved', plainBroker, 1_000, { tierB: '1s', tierC: '1h' });
  const worker = scenario.runtimes.worker;
  const custom = await saveCluster(scenario.databaseUrl, 'reserved-custom', customBroker.nodes, { asDiscovered: true });
  customClusterId = custom.clusterId;
  await worker.notifications.publish('ClusterRegistered', {
    clusterId: customClusterId,
    name: 'reserved-custom',
    environmentId: null,
  });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'reserved-web' });
  ({ runtime: web, rest } = secured);
  listener = await serveOverHttp(createMcpHandler(() => Promise.resolve(web)));
  for (const role of BUILT_IN_ROLES) people.set(role, await person(role));
  // The tier-A poll reads each broker's addresses; the custom broker's must be what its broker.xml says.
  await waitFor(
    'the custom broker’s addresses read by the poll',
    async () => {
      const node = await web.prisma.clusterNode.findFirst({ where: { clusterId: customClusterId } });
      return node?.managementAddress === CUSTOM.management && node.notificationAddress === CUSTOM.notification
        ? true
        : undefined;
    },
    60_000,
  );
}, 300_000);

afterAll(async () => {
  for (const { mcp } of people.values()) await mcp.close().catch(() => undefined);
  await listener.close();
  await secured.close();
  await scenario.stop();
  const broker = brokerMbean(plain.name);
  // A test that failed early made fewer of them: what is not there is not removed.
  for (const queue of outsidePrefix.queues)
    await jolokiaExec(plain, broker, 'destroyQueue(java.lang.String,boolean,boolean)', [queue, true, true]).catch(
      () => undefined,
    );
  for (const address of outsidePrefix.addresses)
    await jolokiaExec(plain, broker, 'deleteAddress(java.lang.String,boolean)', [address, true]).catch(() => undefined);
  await customBroker.stop();
});

describe('sends to the broker’s own addresses', () => {
  it('reads the default addresses from a default broker', async () => {
    const node = await web.prisma.clusterNode.findFirstOrThrow({ where: { clusterId: scenario.clusterId } });
    expect(node).toMatchObject({
      managementAddress: 'activemq.management',
      notificationAddress: 'activemq.notifications',
    });
  });

  it.each([
    'activemq.management',
    'activemq.notifications',
    'activemq.notifications::tap',
    '$sys.x',
    '$.artemis.internal.x',
  ])('refuses a send to %s over REST with destination-reserved, sending and auditing nothing', async (address) => {
    const refused = await sendAs('operator', scenario.clusterId, { address, body: { type: 'text', text: '[]' } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: 'destination-reserved', destination: address });
    expect(await web.prisma.auditEvent.count({ where: { action: 'message.send', target: address } })).toBe(0);
  });

  it.each([
    ['_AMQ_ROUTE_TO', { type: 'binary', value: 'AAAAAAAAAAE=' }],
    ['_AMQ_DUPL_ID', { type: 'string', value: 'once' }],
    ['_AMQ_ORIG_ADDRESS', { type: 'string', value: 'activemq.notifications' }],
    ['_AMQ_NotifType', { type: 'string', value: 'SECURITY_AUTHENTICATION_VIOLATION' }],
    ['__AMQ_CID', { type: 'string', value: 'c' }],
    ['_HQ_ORIG_ADDRESS', { type: 'string', value: 'x' }],
    ['__HDR_BROKER_PATH', { type: 'string', value: 'x' }],
    ['JMSXUserID', { type: 'string', value: 'admin' }],
  ])('refuses the property %s with property-reserved naming it, sending nothing', async (name, value) => {
    const queue = named('reserved.prop');
    await createAnycastQueue(plain, queue);
    const refused = await sendAs('operator', scenario.clusterId, {
      address: queue,
      body: { type: 'text', text: 'x' },
      properties: { [name]: value },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: 'property-reserved', property: name });
    expect(String(refused.json.detail)).toContain(name);
    expect(await messageCount(plain, queue)).toBe(0);
  });

  it('still sends to an ordinary queue with ordinary properties', async () => {
    const queue = named('reserved.ok');
    await createAnycastQueue(plain, queue);
    const sent = await sendAs('operator', scenario.clusterId, {
      address: queue,
      routingType: 'ANYCAST',
      body: { type: 'text', text: 'x' },
      properties: { vin: { type: 'string', value: 'WVW123' } },
    });
    expect(sent.status).toBe(200);
    expect(await messageCount(plain, queue)).toBe(1);
  });

  it('refuses the addresses a broker is configured with, read from that broker, and the defaults there too', async () => {
    for (const address of [
      CUSTOM.management,
      CUSTOM.notification,
      `jms.queue.${CUSTOM.management}`,
      'activemq.management',
    ]) {
      const refused = await sendAs('operator', customClusterId, { address, body: { type: 'text', text: '[]' } });
      expect(refused.status, address).toBe(400);
      expect(refused.json).toMatchObject({ type: 'destination-reserved', destination: address });
    }
    // The default broker has no such address of its own: there the name is an ordinary address.
    outsidePrefix.addresses.add(CUSTOM.management);
    const elsewhere = await sendAs('operator', scenario.clusterId, {
      address: CUSTOM.management,
      routingType: 'ANYCAST',
      body: { type: 'text', text: '[]' },
    });
    expect(elsewhere.status).toBe(200);
  });

  it('refuses over tRPC what REST refuses', async () => {
    const trpc = createTrpcHandler(() => Promise.resolve(web));
    const send = async (input: object) => {
      const response = await trpc(
        new Request('http://127.0.0.1/api/trpc/messages.send', {
          method: 'POST',
          headers: { ...who('operator').auth, 'content-type': 'application/json' },
          body: JSON.stringify({ clusterId: scenario.clusterId, body: { type: 'text', text: '[]' }, ...input }),
        }),
      );
      const answer = (await response.json()) as { error?: { data?: { problem?: Record<string, unknown> } } };
      return { status: response.status, problem: answer.error?.data?.problem };
    };
    expect(await send({ address: 'activemq.notifications' })).toMatchObject({
      status: 400,
      problem: { type: 'destination-reserved', destination: 'activemq.notifications' },
    });
    expect(
      await send({
        address: named('reserved.trpc'),
        properties: { _AMQ_DUPL_ID: { type: 'string', value: 'x' } },
      }),
    ).toMatchObject({ status: 400, problem: { type: 'property-reserved', property: '_AMQ_DUPL_ID' } });
  });

  it('refuses over MCP (send_message) what REST refuses', async () => {
    const management = await toolAs('operator', 'send_message', {
      clusterId: scenario.clusterId,
      address: 'activemq.management',
      body: '[]',
      dryRun: false,
    });
    expect(management.ok).toBe(false);
    expect(management.text).toContain('Reserved destination');
    const property = await toolAs('operator', 'send_message', {
      clusterId: scenario.clusterId,
      address: named('reserved.mcp'),
      body: 'x',
      properties: { _AMQ_DUPL_ID: 'once' },
      dryRun: false,
    });
    expect(property.ok).toBe(false);
    expect(property.text).toContain('_AMQ_DUPL_ID');
    const custom = await toolAs('operator', 'send_message', {
      clusterId: customClusterId,
      address: CUSTOM.notification,
      body: '{}',
      dryRun: true,
    });
    expect(custom.ok).toBe(false);
    expect(custom.text).toContain('Reserved destination');
  });
});

describe('moves and retries into the broker’s own addresses', () => {
  it('refuses a move into a queue on an internal address, over REST and MCP, moving nothing', async () => {
    // The grid leaves out the notification address's queues; an internal-named queue is listed like any other,
    // and a move there would hand messages to the broker's own machinery.
    const source = named('reserved.src');
    const tap = `$sys.${named('tap')}`;
    outsidePrefix.queues.add(tap);
    await createAnycastQueue(plain, source);
    await createQueueOn(plain, tap, tap, 'ANYCAST');
    const sent = await sendAs('operator', scenario.clusterId, {
      address: source,
      routingType: 'ANYCAST',
      body: { type: 'text', text: 'x' },
    });
    expect(sent.status).toBe(200);
    await inGrid(scenario.clusterId, source);
    await inGrid(scenario.clusterId, tap);
    const path = `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(source)}/messages/move`;
    const refused = await callRest(rest, who('operator').auth, 'POST', path, { targetQueue: tap });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: 'destination-reserved', destination: tap });
    const overMcp = await toolAs('operator', 'queue_action', {
      clusterId: scenario.clusterId,
      queue: source,
      action: 'move',
      targetQueue: tap,
      dryRun: false,
      confirm: source,
    });
    expect(overMcp.ok).toBe(false);
    expect(overMcp.text).toContain('Reserved destination');
    expect(await messageCount(plain, source)).toBe(1);
    expect(await web.prisma.auditEvent.count({ where: { action: 'message.move', target: source } })).toBe(0);
  });

  it('refuses a retry by an original address that is the management address', async () => {
    const queue = named('reserved.retry');
    await createAnycastQueue(plain, queue);
    await inGrid(scenario.clusterId, queue);
    const refused = await callRest(
      rest,
      who('operator').auth,
      'POST',
      `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(queue)}/messages/retry`,
      { originalAddress: 'activemq.management' },
    );
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: 'destination-reserved' });
  });
});

async function createQueueOn(node: BrokerNode, name: string, address: string, routingType: string) {
  await jolokia(node, {
    type: 'exec',
    mbean: brokerMbean(node.name),
    operation: 'createQueue(java.lang.String)',
    arguments: [JSON.stringify({ name, address, 'routing-type': routingType, durable: true })],
  });
}

async function brokerNames(node: BrokerNode): Promise<{ queues: string[]; addresses: string[] }> {
  const read = (await jolokiaRead(node, brokerMbean(node.name), ['QueueNames', 'AddressNames'])) as {
    QueueNames: string[];
    AddressNames: string[];
  };
  return { queues: read.QueueNames, addresses: read.AddressNames };
}

describe('queues and addresses of the broker’s own', () => {
  const createQueue = (clusterId: string, body: object) =>
    callRest(rest, who('operator').auth, 'POST', `/clusters/${clusterId}/queues`, {
      routingType: 'MULTICAST',
      durable: true,
      ...body,
    });

  it('refuses creating a queue on the notification, management or an internal address, creating nothing', async () => {
    const custom = customBroker.nodes[0] as BrokerNode;
    const attempts = [
      [scenario.clusterId, plain, { name: named('evtap'), address: 'activemq.notifications' }],
      [scenario.clusterId, plain, { name: named('mgtap'), address: 'activemq.management' }],
      [scenario.clusterId, plain, { name: `$sys.${named('x')}` }],
      [scenario.clusterId, plain, { name: named('sf'), address: '$.artemis.internal.sf.x' }],
      [customClusterId, custom, { name: named('evtap'), address: CUSTOM.notification }],
      [customClusterId, custom, { name: named('mgtap'), address: CUSTOM.management }],
      [customClusterId, custom, { name: named('evtap'), address: 'activemq.notifications' }],
    ] as const;
    for (const [clusterId, node, body] of attempts) {
      const refused = await createQueue(clusterId, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json).toMatchObject({ type: 'destination-reserved' });
      expect(await web.prisma.auditEvent.count({ where: { action: 'queue.create', target: body.name } })).toBe(0);
      expect((await brokerNames(node)).queues).not.toContain(body.name);
    }
  });

  it('refuses creating the broker’s own addresses over REST, creating nothing', async () => {
    const custom = customBroker.nodes[0] as BrokerNode;
    for (const [clusterId, node, name] of [
      [customClusterId, custom, CUSTOM.notification],
      [customClusterId, custom, CUSTOM.management],
      [scenario.clusterId, plain, `$sys.${named('addr')}`],
      [scenario.clusterId, plain, 'activemq.management'],
    ] as const) {
      // The notification address exists once something listens there (Flotilla does): nothing new is the point.
      const existed = (await brokerNames(node)).addresses.includes(name);
      const refused = await callRest(rest, who('operator').auth, 'POST', `/clusters/${clusterId}/addresses`, {
        name,
        routingTypes: ['MULTICAST'],
      });
      expect(refused.status, name).toBe(400);
      expect(refused.json).toMatchObject({ type: 'destination-reserved', destination: name });
      expect(await web.prisma.auditEvent.count({ where: { action: 'address.create', target: name } })).toBe(0);
      if (!existed) expect((await brokerNames(node)).addresses).not.toContain(name);
    }
  });

  it('refuses deleting, purging and pausing an internal queue over REST and MCP, and the queue stays', async () => {
    const queue = `$sys.${named('own')}`;
    outsidePrefix.queues.add(queue);
    await createQueueOn(plain, queue, queue, 'ANYCAST');
    await inGrid(scenario.clusterId, queue);
    const path = `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(queue)}`;
    const { auth } = who('admin');
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/purge'],
      ['POST', '/pause'],
    ] as const) {
      const refused = await callRest(rest, auth, method, `${path}${suffix}`, method === 'POST' ? {} : undefined);
      expect(refused.status, `${method} ${suffix}`).toBe(400);
      expect(refused.json).toMatchObject({ type: 'destination-reserved' });
    }
    for (const action of ['purge', 'pause']) {
      const overMcp = await toolAs('admin', 'queue_action', {
        clusterId: scenario.clusterId,
        queue,
        action,
        dryRun: false,
        confirm: queue,
      });
      expect(overMcp.ok, action).toBe(false);
      expect(overMcp.text).toContain('Reserved destination');
    }
    expect((await brokerNames(plain)).queues).toContain(queue);
    expect(await web.prisma.auditEvent.count({ where: { target: queue } })).toBe(0);
  });
});

/** Puts a message on `queue` over AMQP with the broker's original-address and original-queue annotations forged. */
async function forgeOverAmqp(node: BrokerNode, queue: string, origin: { address: string; queue: string }) {
  await sendAnnotatedOverAmqp(endpointOf(node), queue, 'forged', {
    'x-opt-ORIG-ADDRESS': origin.address,
    'x-opt-ORIG-QUEUE': origin.queue,
  });
}

/** Puts a core message on `queue` through its management sendMessage, with the given string headers. */
async function putWithHeaders(node: BrokerNode, queue: string, headers: Record<string, string>) {
  await jolokia(node, {
    type: 'exec',
    mbean: `${brokerMbean(node.name)},component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`,
    operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
    arguments: [headers, 3, 'x', true, node.user, node.password],
  });
}

describe('a retry never routes a message to a reserved address', () => {
  it('leaves a forged original address or queue in the dead-letter queue, retry all and by ids, and says how many', async () => {
    const dlq = named('reserved.dlq');
    const orders = named('reserved.orders');
    const tap = named('evtap');
    await createAnycastQueue(plain, dlq);
    await createAnycastQueue(plain, orders);
    await createQueueOn(plain, tap, 'activemq.notifications', 'MULTICAST');
    await putWithHeaders(plain, dlq, { _AMQ_ORIG_ADDRESS: orders, _AMQ_ORIG_QUEUE: orders });
    await putWithHeaders(plain, dlq, { _AMQ_ORIG_ADDRESS: 'activemq.notifications', _AMQ_ORIG_QUEUE: tap });
    await forgeOverAmqp(plain, dlq, { address: orders, queue: tap });
    expect(await messageCount(plain, dlq)).toBe(3);
    await inGrid(scenario.clusterId, dlq);
    const path = `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(dlq)}/messages/retry`;
    const all = await callRest(rest, who('operator').auth, 'POST', path, {});
    expect(all.status, JSON.stringify(all.json)).toBe(200);
    expect(all.json).toMatchObject({ appliedCount: 1, nodes: [{ count: 1, detail: { leftOut: 2 } }] });
    expect(await messageCount(plain, orders)).toBe(1);
    expect(await messageCount(plain, dlq)).toBe(2);
    // By ids: the two forged ones named on their node stay too.
    const browsed = (await jolokiaExec(
      plain,
      `${brokerMbean(plain.name)},component=addresses,address="${dlq}",subcomponent=queues,routing-type="anycast",queue="${dlq}"`,
      'browse()',
      [],
    )) as Array<{ messageID: number }>;
    const node = await web.prisma.clusterNode.findFirstOrThrow({ where: { clusterId: scenario.clusterId } });
    const byIds = await callRest(rest, who('operator').auth, 'POST', path, {
      nodeId: node.id,
      messageIds: browsed.map((message) => String(message.messageID)),
    });
    expect(byIds.status, JSON.stringify(byIds.json)).toBe(200);
    expect(byIds.json).toMatchObject({ appliedCount: 0, nodes: [{ detail: { leftOut: 2 } }] });
    expect(await messageCount(plain, dlq)).toBe(2);
  });
});

describe('a broker with its own notification address', () => {
  it('sends Flotilla its events from there, and keeps that address’s queues out of the grid', async () => {
    const custom = customBroker.nodes[0] as BrokerNode;
    const since = new Date();
    const tap = named('opstap');
    await createQueueOn(custom, tap, CUSTOM.notification, 'MULTICAST');
    const marker = named('reserved.marker');
    const created = await callRest(rest, who('operator').auth, 'POST', `/clusters/${customClusterId}/queues`, {
      name: marker,
      routingType: 'ANYCAST',
      durable: true,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    await waitFor(
      'a broker event of the custom broker',
      async () =>
        (await web.prisma.brokerEvent.count({ where: { clusterId: customClusterId, receivedAt: { gte: since } } })) > 0
          ? true
          : undefined,
      60_000,
    );
    await inGrid(customClusterId, marker);
    const hidden = await callRest(
      rest,
      who('admin').auth,
      'GET',
      `/clusters/${customClusterId}/queues/${encodeURIComponent(tap)}`,
    );
    expect(hidden.status).toBe(404);
    expect(await web.prisma.queueTotal.count({ where: { clusterId: customClusterId, queueName: tap } })).toBe(0);
  });
});

describe('no role can create a broker user through Flotilla', () => {
  it('refuses every built-in role the addUser request over REST and MCP, and the broker lists no new user', async () => {
    const customNode = customBroker.nodes[0] as BrokerNode;
    // The pooled node's users of this suite: the ones its requests would add are named under the prefix.
    const plainUsers = async () => (await brokerUsers(plain)).filter((user) => user.startsWith(plainBroker.prefix));
    const before = { plain: await plainUsers(), custom: await brokerUsers(customNode) };
    // Every attempt first, the broker's own user list next: were one to get through, the list shows what it did.
    const passed: string[] = [];
    for (const role of BUILT_IN_ROLES) {
      for (const [clusterId, address] of [
        [scenario.clusterId, 'activemq.management'],
        [customClusterId, CUSTOM.management],
      ] as const) {
        const overRest = await sendAs(role, clusterId, addUserRequest(address, plainBroker.name(`mallory-${role}`)));
        if (overRest.status !== 400 && overRest.status !== 403)
          passed.push(`${role} over REST to ${address}: ${String(overRest.status)}`);
        const overMcp = await toolAs(role, 'send_message', {
          clusterId,
          address,
          body: addUserRequest(address, plainBroker.name(`mallory-${role}-agent`)).body.text,
          properties: { _AMQ_ResourceName: 'broker', _AMQ_OperationName: 'addUser' },
          dryRun: false,
        });
        if (overMcp.ok) passed.push(`${role} over MCP to ${address}: ${overMcp.text}`);
      }
    }
    // Without the properties (refused on their own) the address alone is refused, to the top role too.
    const bare = await sendAs('installer', scenario.clusterId, {
      address: 'activemq.management',
      body: {
        type: 'text',
        text: JSON.stringify([plainBroker.name('mallory-bare'), 'stolen-password-1', 'amq', true]),
      },
    });
    if (bare.status !== 400) passed.push(`installer without properties: ${String(bare.status)}`);
    expect({ plain: await plainUsers(), custom: await brokerUsers(customNode) }).toEqual(before);
    expect(passed).toEqual([]);
    expect(bare.json).toMatchObject({ type: 'destination-reserved' });
  });
});
