// Broker configuration on the run's pooled two-node cluster, as an operator uses it over REST (issue 31, item 7): the
// cluster registered from its nodes' management URLs (behind counting proxies); adoption plans nothing, before and
// after Flotilla configured the cluster; a revision applied canary first (the canary's writes and read-back before
// node 2's first write, at the brokers' doors and in the audit rows) and seen on both brokers over Jolokia; a failure
// on node 2 halts with node 1 applied and a re-run converges; a plan that moved between preview and run is refused
// (409 plan-changed); of two applies at once one is refused (409 apply-in-progress); a High hazard needs its
// acknowledgement (422); a setting changed behind Flotilla's back is drift within one schedule period and fires a
// config-drift alert; a changed bridge is destroyed and re-created with its password only in the vault. Every read
// of a plan takes at most two POSTs per node. Names under the lease's prefix; matches, the connector and bridges
// removed afterwards.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseCluster } from '@test/artemis/lease.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { brokerMbean, jolokiaExec, jolokiaRead } from '@test/jolokia.ts';
import { sendDurableMessages, waitFor } from '@test/native-test-helpers.ts';
import { callRest, type RestAnswer, type RestCall } from '@test/rest-call.ts';
import { userWithToken } from '@test/mcp-client.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { openSecret, processKeys } from '@/modules/platform/governance/index.ts';
import { startWorker, storeSettings, withClient, type WorkerInstance } from '@test/worker-kit.ts';

const lease = leaseCluster();
let database: TestDatabase;
let secured: SecuredRuntime;
let call: RestCall;
let worker: WorkerInstance | undefined;
let clusterId: string;
/** The canary (the first node by name, as the plan orders them) and the other node. */
let canary: BrokerNode;
let second: BrokerNode;
/** Flotilla reaches each node through one, by broker name: the POSTs of a plan's read are counted at the door. */
const proxies = new Map<string, CountingProxy>();
/** Every POST reaching either node through its proxy, in the order they arrived. */
const arrivals: { node: string; operations: readonly string[] }[] = [];

async function proxyFor(node: BrokerNode): Promise<CountingProxy> {
  const proxy = await startCountingProxy(node.managementUrl);
  const posts = proxy.posts as { operations: readonly string[] }[];
  const push = posts.push.bind(posts);
  posts.push = (...items) => {
    for (const item of items) arrivals.push({ node: node.name, operations: item.operations });
    return push(...items);
  };
  return proxy;
}

/** A management write is one operation per POST; a read is a bulk of reads. */
const WRITE = /^(add|create|update|destroy|remove)[A-Z]/;
/** The arrivals as `node:write` and `node:read`, consecutive repeats folded. */
const foldedArrivals = (from: number) =>
  arrivals
    .slice(from)
    .map(({ node, operations }) => {
      const write = operations.length === 1 && WRITE.test(operations[0] ?? '');
      return `${node === canary.name ? 'canary' : 'second'}:${write ? 'write' : 'read'}`;
    })
    .filter((kind, index, all) => kind !== all[index - 1]);
/** Every answer of the API in this file, to look for the bridge password in. */
const answers: unknown[] = [];

const PASSWORD = `Bridge-${randomBytes(12).toString('hex')}`;
const SECRET_NAME = 'bc-bridge-credential';
const names = {
  settings: lease.name('bc.#'),
  security: lease.name('bc.secure.#'),
  dla: lease.name('bc.dla'),
  orders: lease.name('bc.orders'),
  copies: lease.name('bc.copies'),
  copy: lease.name('bc.copy'),
  blocked: lease.name('bc.blocked'),
  blockerSource: lease.name('bc.blocker.source'),
  bridge: lease.name('bc.bridge'),
  forwarded: lease.name('bc.forwarded'),
  adopted: lease.name('bc.adopted'),
  connector: `${lease.prefix}bc-connector`,
};

interface Step {
  id: string;
  kind: string;
  key: string;
  action: string;
  summary: string;
  hazardIds: string[];
}
interface Plan {
  revision: number;
  hash: string;
  nodes: {
    nodeId: string;
    nodeName: string;
    canary: boolean;
    steps: Step[];
    hazards: { id: string; level: string }[];
  }[];
  unread: unknown[];
  postsPerNode: Record<string, number>;
}
interface Applied {
  runId: string | null;
  status: string;
  error?: string | null;
  nodes: {
    nodeName: string;
    outcome: string;
    steps: { stepId: string; outcome: string; auditId: string | null; error: string | null }[];
    readBack: string | null;
  }[];
}
interface Problem {
  type: string;
  detail: string;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<RestAnswer<T>> {
  const answer = await call<T>(method, path, body);
  answers.push(answer.json);
  return answer;
}
const config = (path = '') => `/clusters/${clusterId}/config${path}`;

async function currentNumber(): Promise<number> {
  const { json } = await api<{ items: { number: number }[] }>('GET', config('/revisions'));
  return json.items[0]?.number ?? 0;
}

async function save(document: Record<string, unknown>, comment: string): Promise<number> {
  const answer = await api<{ number: number }>('POST', config('/revisions'), {
    document,
    comment,
    baseRevision: await currentNumber(),
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.number;
}

/**
 * The plan, checked for the two-POST promise on every read: as the plan says, and, until the worker runs (its scrape
 * goes through the same proxies), as counted at each node's door.
 */
async function plan(): Promise<Plan> {
  for (const proxy of proxies.values()) proxy.reset();
  const answer = await api<Plan>('GET', config('/plan'));
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect(answer.json.unread).toEqual([]);
  expect(Object.keys(answer.json.postsPerNode).sort()).toEqual([canary.name, second.name].sort());
  for (const [nodeName, posts] of Object.entries(answer.json.postsPerNode)) {
    expect(posts).toBeGreaterThanOrEqual(1);
    const proxy = proxies.get(nodeName);
    if (worker) {
      // The proxies count the worker's scrape too: the plan's own count, with the listing's two repeats at most.
      expect(posts).toBeLessThanOrEqual(4);
      continue;
    }
    const described = proxy?.posts.map((post) => post.operations.join(', '));
    expect(described, `${nodeName}'s POSTs`).toHaveLength(posts);
    expect(proxy?.firstAsks().length, `${nodeName}'s POSTs: ${JSON.stringify(described)}`).toBeLessThanOrEqual(2);
  }
  return answer.json;
}

const stepsOf = (planned: Plan) => planned.nodes.map((node) => node.steps.length);
/** Each node's steps in words, for an assertion's message. */
const said = (planned: Plan) =>
  planned.nodes.map((node) => `${node.nodeName}: ${node.steps.map((step) => step.summary).join('; ')}`).join('\n');

function apply(planned: Plan, acknowledge: string[] = []) {
  return api<Applied & Problem>('POST', config('/apply'), { planHash: planned.hash, acknowledge });
}

async function applyOk(planned: Plan, acknowledge: string[] = []): Promise<Applied> {
  const answer = await apply(planned, acknowledge);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect(answer.json.status, JSON.stringify(answer.json)).toBe('SUCCEEDED');
  return answer.json;
}

const broker = (node: BrokerNode) => brokerMbean(node.name);
const queueNames = async (node: BrokerNode) => (await jolokiaRead(node, broker(node), 'QueueNames')) as string[];
const divertNames = async (node: BrokerNode) => (await jolokiaRead(node, broker(node), 'DivertNames')) as string[];
const bridgeNames = async (node: BrokerNode) => (await jolokiaRead(node, broker(node), 'BridgeNames')) as string[];
const settingsAt = async (node: BrokerNode, match: string) =>
  JSON.parse(
    (await jolokiaExec(node, broker(node), 'getAddressSettingsAsJSON(java.lang.String)', [match])) as string,
  ) as Record<string, unknown>;
const rolesAt = async (node: BrokerNode, match: string) =>
  JSON.parse((await jolokiaExec(node, broker(node), 'getRolesAsJSON(java.lang.String)', [match])) as string) as {
    name: string;
    send: boolean;
  }[];
const setSettingsBehindFlotilla = (node: BrokerNode, settings: Record<string, unknown>) =>
  jolokiaExec(node, broker(node), 'addAddressSettings(java.lang.String,java.lang.String)', [
    names.settings,
    JSON.stringify(settings),
  ]);

const allPermissions = {
  send: true,
  consume: true,
  createDurableQueue: true,
  deleteDurableQueue: true,
  createNonDurableQueue: true,
  deleteNonDurableQueue: true,
  manage: true,
  browse: true,
  createAddress: true,
  deleteAddress: true,
};
const declaredSettings = { deadLetterAddress: names.dla, maxDeliveryAttempts: 4, redeliveryDelay: 100 };
const baseDocument = {
  addressSettings: [{ match: names.settings, settings: declaredSettings }],
  // A reader role beside amq: roles equal to those in force at "#" would already read as in sync.
  securitySettings: [
    {
      match: names.security,
      roles: [
        { name: 'amq', ...allPermissions },
        { name: 'bc-reader', browse: true },
      ],
    },
  ],
  queues: [
    { name: names.orders, address: names.orders },
    { name: names.copies, address: names.copies },
  ],
  diverts: [{ name: names.copy, address: names.orders, forwardingAddress: names.copies, routingType: 'ANYCAST' }],
};
const bridge = {
  name: names.bridge,
  queueName: names.orders,
  forwardingAddress: names.forwarded,
  staticConnectors: [names.connector],
  retryInterval: 2_000,
  user: 'admin',
  passwordRef: SECRET_NAME,
};

beforeAll(async () => {
  database = await createTestDatabase();
  await storeSettings(database.url, {
    'scrape.tier-a-interval': '1s',
    'scrape.tier-b-interval': '10m',
    'scrape.tier-c-interval': '1h',
  });
  secured = await openSecuredRuntime({ databaseUrl: database.url, instanceId: 'brokerconfig-web' });
  ({ call } = await secured.signedIn());
  for (const node of lease.nodes) proxies.set(node.name, await proxyFor(node));
  // The pool's nodes listen on unrelated ports, so discovery cannot confirm a guess: both URLs given, the seed first.
  const [seed, other] = lease.nodes as [BrokerNode, BrokerNode];
  const registered = await call<{ clusterId: string | null; checks: { status: string }[] }>('POST', '/clusters', {
    name: 'config-cluster',
    environment: 'config-test',
    nodes: [seed, other].map((node) => ({ managementUrl: proxies.get(node.name)?.url })),
    credentials: { username: seed.user, password: seed.password },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBe(200);
  clusterId = registered.json.clusterId ?? '';
  expect(await secured.runtime.prisma.clusterNode.count({ where: { clusterId } })).toBe(2);
  const sorted = [...lease.nodes].sort((a, b) => a.name.localeCompare(b.name));
  [canary, second] = sorted as [BrokerNode, BrokerNode];
  // The bridge's connector, on each node towards the other.
  for (const [node, other] of [
    [canary, second],
    [second, canary],
  ] as const)
    await jolokiaExec(node, broker(node), 'addConnector(java.lang.String,java.lang.String)', [
      names.connector,
      `tcp://127.0.0.1:${String(other.amqpPort)}`,
    ]);
}, 60_000);

afterAll(async () => {
  for (const node of lease.nodes) {
    const mbean = broker(node);
    await jolokiaExec(node, mbean, 'destroyBridge(java.lang.String)', [names.bridge]).catch(() => undefined);
    await jolokiaExec(node, mbean, 'destroyDivert(java.lang.String)', [names.copy]).catch(() => undefined);
    await jolokiaExec(node, mbean, 'destroyDivert(java.lang.String)', [names.blocked]).catch(() => undefined);
    await jolokiaExec(node, mbean, 'removeSecuritySettings(java.lang.String)', [names.security]).catch(() => undefined);
    await jolokiaExec(node, mbean, 'removeAddressSettings(java.lang.String)', [names.settings]).catch(() => undefined);
    await jolokiaExec(node, mbean, 'removeConnector(java.lang.String)', [names.connector]).catch(() => undefined);
  }
  await worker?.stop();
  for (const proxy of proxies.values()) await proxy.close();
  await secured.close();
  await lease.stop();
  await database.drop();
}, 60_000);

describe('broker configuration on a two-node cluster', () => {
  it('adoption of the live cluster gives a revision whose plan has no step on any node', async () => {
    for (const node of lease.nodes)
      await jolokiaExec(node, broker(node), 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: names.adopted, address: names.adopted, 'routing-type': 'ANYCAST', durable: true }),
        true,
      ]);
    const before = await currentNumber();
    const adopted = await api<{ number: number; document: { queues: { name: string }[] } }>('POST', config('/adopt'), {
      baseRevision: before,
    });
    expect(adopted.status, JSON.stringify(adopted.json)).toBe(200);
    expect(adopted.json.number).toBe(before + 1);
    expect(adopted.json.document.queues.map((queue) => queue.name)).toContain(names.adopted);
    const planned = await plan();
    expect(planned.revision).toBe(adopted.json.number);
    // Other suites share these brokers and remove their own queues at any time: the only step allowed is the
    // re-creation of an item of theirs gone from that node since the adoption.
    const unexplained: string[] = [];
    for (const node of planned.nodes) {
      const target = node.nodeName === canary.name ? canary : second;
      const live = [...(await queueNames(target)), ...(await divertNames(target))];
      for (const step of node.steps)
        if (step.action !== 'create' || step.key.startsWith(lease.prefix) || live.includes(step.key))
          unexplained.push(`${node.nodeName}: ${step.summary}`);
    }
    expect(unexplained, 'the adopted revision plans nothing').toEqual([]);
  });

  it('applies a revision canary first: node 1 applied and read back before node 2 is touched, then both show it', async () => {
    await save(baseDocument, 'orders with a copy, their settings and roles');
    const planned = await plan();
    expect(planned.nodes.map((node) => node.nodeName)).toEqual([canary.name, second.name]);
    expect(planned.nodes.map((node) => node.canary)).toEqual([true, false]);
    expect(stepsOf(planned), said(planned)).toEqual([5, 5]);
    expect(planned.nodes.flatMap((node) => node.hazards.filter((hazard) => hazard.level === 'HIGH'))).toEqual([]);

    const arrivedBefore = arrivals.length;
    const applied = await applyOk(planned);
    // At the brokers' doors: the plan read again on both nodes, the canary's writes and its read-back, and only then
    // node 2's writes and read-back (the drift evaluated after the run reads both again).
    const folded = foldedArrivals(arrivedBefore);
    const firstWrite = folded.indexOf('canary:write');
    expect(folded.slice(0, firstWrite).every((kind) => kind.endsWith(':read'))).toBe(true);
    expect(folded.slice(firstWrite, firstWrite + 4), folded.join(' ')).toEqual([
      'canary:write',
      'canary:read',
      'second:write',
      'second:read',
    ]);
    expect(folded.slice(firstWrite + 4).every((kind) => kind.endsWith(':read'))).toBe(true);
    expect(applied.nodes.map((node) => [node.nodeName, node.outcome, node.readBack])).toEqual([
      [canary.name, 'APPLIED', null],
      [second.name, 'APPLIED', null],
    ]);
    // The step audit rows: every one of node 1's finished before node 2's first started.
    const rows = await secured.runtime.prisma.auditEvent.findMany({
      where: {
        clusterId,
        action: { startsWith: 'config.' },
        parameters: { path: ['run'], equals: applied.runId ?? '' },
      },
      orderBy: { startedAt: 'asc' },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    const [first, next] = applied.nodes.map((node) => node.steps.map((step) => byId.get(step.auditId ?? '')));
    expect(first?.length).toBe(5);
    expect(next?.length).toBe(5);
    expect([...(first ?? []), ...(next ?? [])].every((row) => row?.outcome === 'SUCCEEDED')).toBe(true);
    const lastOfCanary = Math.max(...(first ?? []).map((row) => row?.finishedAt?.getTime() ?? Infinity));
    const firstOfSecond = Math.min(...(next ?? []).map((row) => row?.startedAt.getTime() ?? -Infinity));
    expect(lastOfCanary).toBeLessThanOrEqual(firstOfSecond);
    expect(rows.map((row) => row.id)).toEqual([...(first ?? []), ...(next ?? [])].map((row) => row?.id));
    // The run's stored progress says the same.
    const runs = await api<{ items: { id: string; status: string; progress: Applied['nodes'] }[] }>(
      'GET',
      config('/runs'),
    );
    const run = runs.json.items.find((item) => item.id === applied.runId);
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.progress.map((node) => [node.nodeName, node.steps.length, node.readBack])).toEqual([
      [canary.name, 5, null],
      [second.name, 5, null],
    ]);

    for (const node of [canary, second]) {
      expect(await queueNames(node)).toEqual(expect.arrayContaining([names.orders, names.copies]));
      expect(await divertNames(node)).toContain(names.copy);
      expect(await settingsAt(node, names.settings)).toMatchObject(declaredSettings);
      expect((await rolesAt(node, names.security)).map((role) => [role.name, role.send]).sort()).toEqual([
        ['amq', true],
        ['bc-reader', false],
      ]);
    }
    const settled = await plan();
    expect(stepsOf(settled), said(settled)).toEqual([0, 0]);
  });

  it('a failure on node 2 halts the run with node 1 applied; once the cause is gone a new run converges', async () => {
    await save(
      { ...baseDocument, queues: [...baseDocument.queues, { name: names.blocked, address: names.blocked }] },
      'a queue node 2 cannot take yet',
    );
    // A divert shares the queues' namespace: one of the queue's name on node 2 makes createQueue fail there.
    await jolokiaExec(second, broker(second), 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: names.blockerSource, address: names.blockerSource, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    await jolokiaExec(second, broker(second), 'createDivert(java.lang.String)', [
      JSON.stringify({ name: names.blocked, address: names.blockerSource, 'forwarding-address': names.orders }),
    ]);
    expect(await divertNames(second)).toContain(names.blocked);

    const planned = await plan();
    expect(stepsOf(planned), said(planned)).toEqual([1, 1]);
    const halted = await apply(planned);
    expect(halted.status, JSON.stringify(halted.json)).toBe(200);
    expect(halted.json.status).toBe('HALTED');
    expect(halted.json.nodes.map((node) => [node.nodeName, node.outcome])).toEqual([
      [canary.name, 'APPLIED'],
      [second.name, 'HALTED'],
    ]);
    expect(halted.json.nodes[1]?.steps.map((step) => step.outcome)).toEqual(['FAILED']);
    expect(halted.json.error).toContain(second.name);
    const runs = await api<{ items: { id: string; status: string; error: string | null }[] }>('GET', config('/runs'));
    expect(runs.json.items.find((run) => run.id === halted.json.runId)?.status).toBe('HALTED');
    const audit = await secured.runtime.prisma.auditEvent.findFirstOrThrow({
      where: { clusterId, action: 'config.apply', parameters: { path: ['plan'], equals: planned.hash } },
    });
    expect(audit.outcome).toBe('PARTIAL');
    expect(await queueNames(canary)).toContain(names.blocked);
    expect(await queueNames(second)).not.toContain(names.blocked);

    await jolokiaExec(second, broker(second), 'destroyDivert(java.lang.String)', [names.blocked]);
    const again = await plan();
    expect(stepsOf(again), said(again)).toEqual([0, 1]);
    await applyOk(again);
    expect(await queueNames(second)).toContain(names.blocked);
    const settled = await plan();
    expect(stepsOf(settled), said(settled)).toEqual([0, 0]);
  });

  it('refuses a plan that moved between preview and run (409 plan-changed), and one of two applies at once (409 apply-in-progress)', async () => {
    const previewed = await plan();
    expect(stepsOf(previewed), said(previewed)).toEqual([0, 0]);
    await setSettingsBehindFlotilla(second, { ...declaredSettings, maxDeliveryAttempts: 7 });
    const refused = await apply(previewed);
    expect(refused.status).toBe(409);
    expect(refused.json.type).toBe('plan-changed');
    expect(await settingsAt(second, names.settings)).toMatchObject({ maxDeliveryAttempts: 7 });

    const moved = await plan();
    expect(stepsOf(moved), said(moved)).toEqual([0, 1]);
    const both = await Promise.all([apply(moved), apply(moved)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const loser = both.find((answer) => answer.status === 409);
    expect(loser?.json.type).toBe('apply-in-progress');
    expect(both.find((answer) => answer.status === 200)?.json.status).toBe('SUCCEEDED');
    expect(await settingsAt(second, names.settings)).toMatchObject({ maxDeliveryAttempts: 4 });
  });

  it('refuses a High hazard without its acknowledgement (422) and applies with it', async () => {
    await sendDurableMessages(canary, names.copies, 1);
    await save(
      {
        ...baseDocument,
        queues: [baseDocument.queues[0], { name: names.blocked, address: names.blocked }],
        diverts: [],
      },
      'no copies any more',
    );
    const planned = await plan();
    const hazard = planned.nodes[0]?.hazards.find((one) => one.level === 'HIGH');
    expect(hazard?.id).toBe(`queue:${names.copies}:remove-with-messages`);
    expect(planned.nodes[1]?.hazards.filter((one) => one.level === 'HIGH')).toEqual([]);
    expect(planned.nodes.map((node) => node.steps.map((step) => `${step.kind}.${step.action}`))).toEqual([
      ['divert.remove', 'queue.remove'],
      ['divert.remove', 'queue.remove'],
    ]);

    const refused = await apply(planned);
    expect(refused.status).toBe(422);
    expect(refused.json.type).toBe('hazard-unacknowledged');
    expect(refused.json.detail).toContain(hazard?.id);
    expect(await queueNames(canary)).toContain(names.copies);

    await applyOk(planned, [hazard?.id ?? '']);
    for (const node of [canary, second]) {
      expect(await queueNames(node)).not.toContain(names.copies);
      expect(await divertNames(node)).not.toContain(names.copy);
    }
  });

  it('a setting changed behind Flotilla’s back is drift within one schedule period and fires a config-drift alert', async () => {
    const rule = await api<{ rule: { id: string } }>('POST', '/alerts/rules', {
      name: 'configuration drifted',
      condition: { kind: 'config-drift', params: { threshold: 0 } },
      clusterId,
      severity: 'warning',
    });
    expect(rule.status, JSON.stringify(rule.json)).toBe(200);
    // The worker from here on (its scrape would be counted at the proxies): drift at the default interval, 1 minute.
    worker ??= await startWorker(database.url, 'brokerconfig-worker');
    const put = await api('PUT', '/settings/config.drift.interval', { value: '5s' });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    await waitFor('the interval in the worker', () =>
      worker?.runtime.settings.value('config.drift.interval') === '5s' ? true : undefined,
    );

    const drifted = async () => {
      const { json } = await api<{ items: { nodeName: string; kind: string; key: string; state: string }[] }>(
        'GET',
        config('/drift'),
      );
      return json.items.find(
        (item) => item.nodeName === canary.name && item.kind === 'addressSetting' && item.key === names.settings,
      );
    };
    expect((await drifted())?.state).toBe('IN_SYNC');
    const changedAt = Date.now();
    await setSettingsBehindFlotilla(canary, { ...declaredSettings, redeliveryDelay: 900 });
    await waitFor('the drift', async () => ((await drifted())?.state === 'DRIFTED' ? true : undefined), 15_000);
    // One period (5 s), and the pass's own reads.
    expect(Date.now() - changedAt).toBeLessThan(8_000);

    const firing = await waitFor(
      'the config-drift alert',
      async () => {
        const { json } = await api<{ items: { rule: string; subject: string; state: string }[] }>(
          'GET',
          '/alerts?view=firing',
        );
        return json.items.find((item) => item.rule === 'configuration drifted');
      },
      20_000,
    );
    expect(firing).toMatchObject({ subject: canary.name, state: 'firing' });
  });

  it('a changed bridge is destroyed and re-created, its password only in the vault', async () => {
    const stored = await api('PUT', config(`/secrets/${SECRET_NAME}`), { value: PASSWORD });
    expect(stored.status, JSON.stringify(stored.json)).toBe(200);
    const document = {
      ...baseDocument,
      queues: [baseDocument.queues[0], { name: names.blocked, address: names.blocked }],
      diverts: [],
    };
    await save({ ...document, bridges: [bridge] }, 'a bridge to the other node');
    const created = await plan();
    // The drifted setting of the test before is put back too.
    expect(created.nodes.map((node) => node.steps.map((step) => `${step.kind}.${step.action}`))).toEqual([
      ['addressSetting.update', 'bridge.create'],
      ['bridge.create'],
    ]);
    await applyOk(created);
    for (const node of [canary, second]) expect(await bridgeNames(node)).toContain(names.bridge);

    await save({ ...document, bridges: [{ ...bridge, retryInterval: 3_000 }] }, 'retry less often');
    const changed = await plan();
    expect(changed.nodes.map((node) => node.steps.map((step) => `${step.kind}.${step.action}`))).toEqual([
      ['bridge.remove', 'bridge.create'],
      ['bridge.remove', 'bridge.create'],
    ]);
    const applied = await applyOk(changed);
    const rows = await secured.runtime.prisma.auditEvent.findMany({
      where: {
        clusterId,
        action: { startsWith: 'config.bridge.' },
        parameters: { path: ['run'], equals: applied.runId ?? '' },
      },
      orderBy: { startedAt: 'asc' },
    });
    expect(rows.map((row) => `${row.action} ${row.outcome}`)).toEqual([
      'config.bridge.remove SUCCEEDED',
      'config.bridge.create SUCCEEDED',
      'config.bridge.remove SUCCEEDED',
      'config.bridge.create SUCCEEDED',
    ]);
    for (const node of [canary, second]) {
      expect(await bridgeNames(node)).toContain(names.bridge);
      const attribute = `${broker(node)},component=bridges,name="${names.bridge}"`;
      expect(Number(await jolokiaRead(node, attribute, 'RetryInterval'))).toBe(3_000);
    }
    const settled = await plan();
    expect(stepsOf(settled), said(settled)).toEqual([0, 0]);

    await api('GET', config());
    await api('GET', config('/secrets'));
    await api('GET', config('/drift'));
    await api('GET', config('/revisions'));
    const everything = await withClient(database.url, async (client) => {
      const dump = await client.query<{ row: string }>(
        `SELECT row_to_json(a)::text AS row FROM audit_event a
         UNION ALL SELECT row_to_json(r)::text FROM config_revision r
         UNION ALL SELECT row_to_json(p)::text FROM config_apply_run p
         UNION ALL SELECT row_to_json(d)::text FROM config_drift d`,
      );
      return dump.rows.map((row) => row.row).join('\n');
    });
    expect(everything).toContain(names.bridge);
    expect(everything).not.toContain(PASSWORD);
    expect(JSON.stringify(answers)).toContain(SECRET_NAME);
    expect(JSON.stringify(answers)).not.toContain(PASSWORD);
    const secret = await secured.runtime.prisma.configSecret.findUniqueOrThrow({
      where: { clusterId_name: { clusterId, name: SECRET_NAME } },
    });
    expect(secret.cipher.length).toBeGreaterThan(PASSWORD.length);
    for (const form of [PASSWORD, Buffer.from(PASSWORD).toString('base64'), Buffer.from(PASSWORD).toString('hex')])
      expect(JSON.stringify(secret)).not.toContain(form);
    // Sealed, and bound to this cluster and name: it opens to the password there only.
    const sealed = { cipher: secret.cipher, keyId: secret.keyId };
    const binding = `config-secret:${clusterId}:${SECRET_NAME}`;
    expect(openSecret(processKeys(), sealed, binding).toString('utf8')).toBe(PASSWORD);
    expect(() => openSecret(processKeys(), sealed, `config-secret:${clusterId}:another`)).toThrow();
  });

  it('adoption of the cluster Flotilla configured plans nothing either: its own matches and bridge stay declared', async () => {
    const adopted = await api<{ number: number; notes: string[] }>('POST', config('/adopt'), {
      baseRevision: await currentNumber(),
    });
    expect(adopted.status, JSON.stringify(adopted.json)).toBe(200);
    expect(adopted.json.notes.find((note) => note.startsWith('Kept as revision'))).toContain(names.bridge);
    const planned = await plan();
    expect(planned.revision).toBe(adopted.json.number);
    const ours = planned.nodes.flatMap((node) =>
      node.steps.filter((step) => step.key.startsWith(lease.prefix)).map((step) => `${node.nodeName}: ${step.summary}`),
    );
    expect(ours).toEqual([]);
    for (const node of [canary, second]) expect(await bridgeNames(node)).toContain(names.bridge);
  });

  it('in an environment that asks for it, applies only a plan another person approved', async () => {
    const put = (value: string) => api('PUT', '/settings/config.approval-environments', { value });
    expect((await put('config-test')).status).toBe(200);
    try {
      // The revision in force, with one change: a longer redelivery delay at the suite's match (longer than whatever
      // is declared, so a retry of this test plans the same one step).
      const current = await api<{ document: { addressSettings: { match: string; settings: object }[] } }>(
        'GET',
        config(`/revisions/${String(await currentNumber())}`),
      );
      const ours = current.json.document.addressSettings.find((item) => item.match === names.settings);
      const delay = ((ours?.settings as { redeliveryDelay?: number } | undefined)?.redeliveryDelay ?? 0) + 150;
      // Only this suite's queues, diverts and bridges: the adopted revision also holds other suites' queues, which
      // they remove at any time (a plan would re-create them).
      const suites = <T extends { name: string }>(items: T[] | undefined) =>
        (items ?? []).filter((item) => item.name.startsWith(lease.prefix));
      const declared = current.json.document as typeof current.json.document & {
        queues?: { name: string }[];
        diverts?: { name: string }[];
        bridges?: { name: string }[];
      };
      const document = {
        ...current.json.document,
        queues: suites(declared.queues),
        diverts: suites(declared.diverts),
        bridges: suites(declared.bridges),
        addressSettings: current.json.document.addressSettings.map((item) =>
          item.match === names.settings ? { ...item, settings: { ...item.settings, redeliveryDelay: delay } } : item,
        ),
      };
      await save(document, 'a longer redelivery delay, approved first');
      const planned = await plan();
      expect(stepsOf(planned), said(planned)).toEqual([1, 1]);
      const unapproved = await apply(planned);
      expect(unapproved.status, JSON.stringify(unapproved.json)).toBe(409);
      expect(unapproved.json.type).toBe('approval-required');
      // The runner's own approval is recorded but does not count.
      const own = await api('POST', config('/approvals'), { planHash: planned.hash });
      expect(own.status, JSON.stringify(own.json)).toBe(200);
      const self = await apply(planned);
      expect(self.status).toBe(409);
      expect(self.json.detail).toContain('You approved this plan yourself');
      const token = await userWithToken(secured.runtime, secured.rest, {
        username: 'config-approver',
        role: 'operator',
        tokenName: 'approver',
      });
      const approver = (method: string, path: string, body?: unknown) =>
        callRest(secured.rest, { authorization: `Bearer ${token}` }, method, path, body);
      // An approval names the plan in force: a stale hash is refused.
      const stale = await approver('POST', config('/approvals'), { planHash: 'f'.repeat(64) });
      expect(stale.status).toBe(409);
      expect(stale.json.type).toBe('plan-changed');
      expect((await approver('POST', config('/approvals'), { planHash: planned.hash })).status).toBe(200);
      const approved = await applyOk(planned);
      expect(approved.nodes.map((node) => node.outcome)).toEqual(['APPLIED', 'APPLIED']);
      const run = await secured.runtime.prisma.configApplyRun.findUniqueOrThrow({
        where: { id: approved.runId ?? '' },
      });
      expect(run.approvedBy).toMatch(/^config-approver /);
      for (const node of [canary, second])
        expect(Number((await settingsAt(node, names.settings)).redeliveryDelay)).toBe(delay);
    } finally {
      await put('');
    }
  });
});
