// Capture on the leased two-node cluster, with the real worker (the scrape claims the cluster; the capture worker
// service reconciles it and drains its taps into message_index): every message sent to either node is indexed once
// (multiset of message ids), both preflight refusals come with their broker snippets (and leave the subscription
// FAILED, audited once), and removing the subscription removes the divert and the queue from every node. The taps'
// names are outside the lease's prefix, so the suite removes its own (and its divert and security setting).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseCluster } from '@test/artemis/lease.ts';
import { sendOwnAmqpMessage } from '@test/amqp-annotated.ts';
import { eventually } from '@test/eventually.ts';
import { captureLogLines } from '@test/log-lines.ts';
import { brokerMbean, jolokia, jolokiaExec } from '@test/jolokia.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { startHaScenario, storeSettings, type HaScenario } from '@test/worker-kit.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { listDiverts, ManagementClient, readCaptureSecurity, readTapShape } from '@/modules/platform/broker/index.ts';
import { captureRuntime } from './capture-runtime.ts';
import type { CapturePassOutcome } from './capture-reconciler.ts';
import { loadDeploymentId } from './deployment-id.ts';
import { refuseExclusiveDivert, refuseUnrestrictedQueue } from './preflight.ts';
import { tapNamesOf } from './tap-names.ts';

const cluster = leaseCluster();
const nodes = cluster.nodes as [BrokerNode, BrokerNode];
const orders = cluster.name('orders');
const shadowed = cluster.name('shadowed');
const guarded = cluster.name('guarded');
const exclusiveDivert = cluster.name('shadowed.exclusive');
let scenario: HaScenario;
let deploymentId: string;
const PER_NODE = 25;

const prisma = () => scenario.runtimes.worker.prisma;

async function reconcile(): Promise<CapturePassOutcome> {
  const runtime = captureRuntime();
  if (!runtime) throw new Error('the capture worker service is not running');
  const outcome = (await runtime.reconcileOwned()).find((each) => each.clusterId === scenario.clusterId);
  if (!outcome) throw new Error('the worker does not own the cluster (yet)');
  return outcome;
}

async function subscribe(address: string): Promise<string> {
  const id = randomUUID();
  await prisma().sqlSubscription.create({ data: { id, clusterId: scenario.clusterId, address, mode: 'CAPTURE' } });
  return id;
}

const diverts = (node: BrokerNode) => {
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  return listDiverts(client).finally(() => client.close());
};

/** The subscription's tap on the node, found by its names' common part (each node's tap has its own node word). */
async function tapOn(node: BrokerNode, address: string, subscriptionId: string) {
  const { match } = tapNamesOf(deploymentId, address, subscriptionId);
  const base = match.slice(0, -'#'.length);
  const divert = (await diverts(node)).find((each) => each.name.startsWith(base) && each.name.endsWith('.divert'));
  const queues = (await queueNames(node)).filter((name) => name.startsWith(base));
  return { divert, queues };
}

async function queueNames(node: BrokerNode): Promise<string[]> {
  return (await jolokia(node, { type: 'read', mbean: brokerMbean(node.name), attribute: 'QueueNames' })) as string[];
}

async function sendWithIds(node: BrokerNode, address: string, ids: readonly string[]): Promise<void> {
  const endpoint = { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };
  for (const id of ids) await sendOwnAmqpMessage(endpoint, address, { message_id: id, body: `order ${id}` });
}

async function indexedIds(subscriptionId: string): Promise<string[]> {
  const rows = await prisma().messageIndex.findMany({ where: { subscriptionId }, select: { messageId: true } });
  return rows.map((row) => row.messageId).sort();
}

beforeAll(async () => {
  scenario = await startHaScenario('capture', cluster, 500);
  deploymentId = await loadDeploymentId(scenario.runtimes.worker.db.pool);
  for (const node of nodes) {
    await createAnycastQueue(node, orders);
    await createAnycastQueue(node, shadowed);
    await createAnycastQueue(node, guarded);
  }
  // The worker owns the cluster once its scrape has claimed it.
  await eventually('the worker to own the cluster', () => reconcile().catch(() => undefined), 30_000);
}, 120_000);

afterAll(async () => {
  await prisma()
    .sqlSubscription.deleteMany({ where: { clusterId: scenario.clusterId } })
    .catch(() => undefined);
  await reconcile().catch(() => undefined);
  for (const node of nodes) {
    await jolokiaExec(node, brokerMbean(node.name), 'destroyDivert(java.lang.String)', [exclusiveDivert]).catch(
      () => undefined,
    );
    await jolokiaExec(node, brokerMbean(node.name), 'removeSecuritySettings(java.lang.String)', [guarded]).catch(
      () => undefined,
    );
  }
  await scenario.stop();
});

describe('capture on a two-node cluster', () => {
  let subscriptionId: string;

  it('installs a tap on every serving node and indexes every message sent to either node once', async () => {
    // A retry goes on with the first attempt's subscription (one per address).
    const existing = await prisma().sqlSubscription.findFirst({
      where: { clusterId: scenario.clusterId, address: orders },
    });
    subscriptionId = existing?.id ?? (await subscribe(orders));
    // The worker's own reconcile job may install the taps before this pass does: the audit rows count the installs.
    expect(await reconcile()).toMatchObject({ removed: 0, refused: 0, failed: 0 });
    expect(
      await prisma().auditEvent.count({
        where: { action: 'sql.capture.install', clusterId: scenario.clusterId, outcome: 'SUCCEEDED' },
      }),
    ).toBe(2);
    const queues: string[] = [];
    for (const node of nodes) {
      const tap = await tapOn(node, orders, subscriptionId);
      expect(tap.queues).toHaveLength(1);
      const queue = tap.queues[0] ?? '';
      queues.push(queue);
      expect(tap.divert).toMatchObject({ address: orders, forwardingAddress: queue, exclusive: false });
    }
    // Each node's tap is its own address: the cluster cannot hand one node's copy to the other's consumer.
    expect(new Set(queues).size).toBe(2);
    const row = await prisma().sqlSubscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    expect(row).toMatchObject({ state: 'ACTIVE', lastError: null });

    const sent = nodes.flatMap((node, index) =>
      Array.from({ length: PER_NODE }, (_, each) => `cap-${String(index)}-${String(each)}`),
    );
    await sendWithIds(nodes[0], orders, sent.slice(0, PER_NODE));
    await sendWithIds(nodes[1], orders, sent.slice(PER_NODE));
    const expected = [...sent].sort();
    await eventually(
      'every sent message in message_index',
      async () => ((await indexedIds(subscriptionId)).length >= expected.length ? true : undefined),
      30_000,
    );
    expect(await indexedIds(subscriptionId)).toEqual(expected);
    const nodesSeen = await prisma().messageIndex.groupBy({
      by: ['nodeName'],
      where: { subscriptionId },
      _count: true,
    });
    expect(Object.fromEntries(nodesSeen.map((group) => [group.nodeName, group._count]))).toEqual({
      [nodes[0].name]: PER_NODE,
      [nodes[1].name]: PER_NODE,
    });
    // Acknowledged only once written: the capture queues are drained.
    for (const [index, node] of nodes.entries())
      await eventually(
        `the tap on ${node.name} to be drained`,
        async () =>
          Number(
            await jolokia(node, {
              type: 'read',
              mbean: `${brokerMbean(node.name)},component=addresses,address="${queues[index] ?? ''}",subcomponent=queues,routing-type="anycast",queue="${queues[index] ?? ''}"`,
              attribute: 'MessageCount',
            }),
          ) === 0
            ? true
            : undefined,
        10_000,
      );
  }, 90_000);

  it('indexes a message sent without an id under the broker’s id of it on its node, the id the live source gives', async () => {
    const marker = randomUUID();
    const node = nodes[0];
    const endpoint = { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };
    await sendOwnAmqpMessage(endpoint, orders, { body: 'no id of its own', application_properties: { marker } });
    const indexed = await eventually(
      'the message without an id in message_index',
      async () => {
        const rows = await prisma().messageIndex.findMany({
          where: { subscriptionId },
          select: { messageId: true, properties: true },
        });
        return rows.find((row) => JSON.stringify(row.properties).includes(marker));
      },
      30_000,
    );
    const queueMbean = `${brokerMbean(node.name)},component=addresses,address="${orders}",subcomponent=queues,routing-type="anycast",queue="${orders}"`;
    const browsed = (await jolokiaExec(node, queueMbean, 'browse(java.lang.String)', [
      `marker = '${marker}'`,
    ])) as Array<{
      messageID: number | string;
    }>;
    expect(browsed).toHaveLength(1);
    expect(indexed.messageId).toBe(String(browsed[0]?.messageID));
  }, 60_000);

  it('acts on drift only: a second pass installs and removes nothing', async () => {
    expect(await reconcile()).toMatchObject({ installed: 0, updated: 0, removed: 0, refused: 0, failed: 0 });
    const audits = await prisma().auditEvent.count({
      where: { action: 'sql.capture.install', clusterId: scenario.clusterId, outcome: 'SUCCEEDED' },
    });
    expect(audits).toBe(2);
  });

  it('brings the taps in place to a changed ring size and expiry delay, audited, and then acts no more', async () => {
    // As an operator's change arrives: stored, then announced to every process.
    await storeSettings(
      scenario.databaseUrl,
      { 'sql.capture.ring-size': 400, 'sql.capture.expiry-delay': '20m' },
      { announce: true },
    );
    await eventually(
      'the worker to read the new ring size',
      () => (scenario.runtimes.worker.settings.value('sql.capture.ring-size') === 400 ? true : undefined),
      10_000,
    );
    await eventually(
      'the worker to read the new expiry delay',
      () => (scenario.runtimes.worker.settings.value('sql.capture.expiry-delay') === '20m' ? true : undefined),
      10_000,
    );
    expect(await reconcile()).toMatchObject({ installed: 0, updated: 2, removed: 0, failed: 0 });
    for (const node of nodes) {
      const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
      try {
        const { queues } = await tapOn(node, orders, subscriptionId);
        expect(queues).toHaveLength(1);
        expect(await readTapShape(client, queues[0] as string)).toEqual({ ringSize: 400, expiryDelayMs: 1_200_000 });
      } finally {
        client.close();
      }
    }
    const updates = await prisma().auditEvent.findMany({
      where: { action: 'sql.capture.update', clusterId: scenario.clusterId },
    });
    expect(updates.map((update) => update.outcome)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(await reconcile()).toMatchObject({ installed: 0, updated: 0, removed: 0, failed: 0 });
  });

  it('refuses an address behind an exclusive divert, with the divert made non-exclusive as the snippet', async () => {
    await jolokiaExec(nodes[0], brokerMbean(nodes[0].name), 'createDivert(java.lang.String)', [
      JSON.stringify({ name: exclusiveDivert, address: shadowed, 'forwarding-address': orders, exclusive: true }),
    ]);
    const client = new ManagementClient({
      url: nodes[0].managementUrl,
      user: nodes[0].user,
      password: nodes[0].password,
    });
    let refusal: unknown;
    try {
      refuseExclusiveDivert(shadowed, await listDiverts(client));
    } catch (error) {
      refusal = error;
    } finally {
      client.close();
    }
    expect(refusal).toBeInstanceOf(ProblemError);
    const problem = (refusal as ProblemError).problem;
    expect(problem).toMatchObject({ type: 'capture-refused', status: 409, reason: 'exclusive-divert' });
    expect(problem.configSnippet).toContain(`<divert name="${exclusiveDivert}">`);
    expect(problem.configSnippet).toContain('<exclusive>false</exclusive>');

    const id = await subscribe(shadowed);
    const outcome = await reconcile();
    expect(outcome.refused).toBe(1);
    const row = await prisma().sqlSubscription.findUniqueOrThrow({ where: { id } });
    expect(row.state).toBe('FAILED');
    expect(row.lastError).toContain('<exclusive>false</exclusive>');
    // Refused where the exclusive divert is; the other node, which has none, is tapped.
    expect((await tapOn(nodes[0], shadowed, id)).divert).toBeUndefined();
    expect((await tapOn(nodes[1], shadowed, id)).divert).toBeDefined();
    // Audited once, not at every pass.
    await reconcile();
    expect(
      await prisma().auditEvent.count({
        where: {
          action: 'sql.capture.install',
          target: { startsWith: tapNamesOf(deploymentId, shadowed, id).queue },
          outcome: 'REFUSED',
        },
      }),
    ).toBe(1);
    await prisma().sqlSubscription.delete({ where: { id } });
    expect(await reconcile()).toMatchObject({ removed: 1 });
  });

  it('refuses a capture queue readable by roles that may not read the source, with the security setting as the snippet', async () => {
    for (const node of nodes)
      await jolokiaExec(
        node,
        brokerMbean(node.name),
        'addSecuritySettings(java.lang.String,java.lang.String,java.lang.String,java.lang.String,java.lang.String,java.lang.String,java.lang.String,java.lang.String,java.lang.String)',
        [guarded, 'amq', 'auditors', 'amq', 'amq', 'amq', 'amq', 'amq', 'auditors'],
      );
    const id = await subscribe(guarded);
    const names = tapNamesOf(deploymentId, guarded, id);
    const client = new ManagementClient({
      url: nodes[1].managementUrl,
      user: nodes[1].user,
      password: nodes[1].password,
    });
    let refusal: unknown;
    try {
      refuseUnrestrictedQueue(guarded, names.match, await readCaptureSecurity(client, guarded, names.queue));
    } catch (error) {
      refusal = error;
    } finally {
      client.close();
    }
    expect(refusal).toBeInstanceOf(ProblemError);
    const problem = (refusal as ProblemError).problem;
    expect(problem).toMatchObject({ type: 'capture-refused', status: 409, reason: 'unrestricted-queue' });
    expect(problem.detail).toContain('amq');
    expect(problem.configSnippet).toContain(`<security-setting match="${names.match}">`);
    expect(problem.configSnippet).toContain('<permission type="consume" roles="auditors"/>');

    const outcome = await reconcile();
    expect(outcome.refused).toBe(2);
    const row = await prisma().sqlSubscription.findUniqueOrThrow({ where: { id } });
    expect(row.state).toBe('FAILED');
    expect(row.lastError).toContain(`<security-setting match="${names.match}">`);
    for (const node of nodes) expect((await tapOn(node, guarded, id)).queues).toEqual([]);
    await prisma().sqlSubscription.delete({ where: { id } });
  });

  it('gives a tap whose divert was lost its divert again', async () => {
    const before = await tapOn(nodes[0], orders, subscriptionId);
    await jolokiaExec(nodes[0], brokerMbean(nodes[0].name), 'destroyDivert(java.lang.String)', [before.divert?.name]);
    expect((await tapOn(nodes[0], orders, subscriptionId)).divert).toBeUndefined();
    // The worker's own reconcile job may get there first: what counts is the divert back, put there by a pass.
    expect(await reconcile()).toMatchObject({ removed: 0, failed: 0 });
    expect(await tapOn(nodes[0], orders, subscriptionId)).toEqual(before);
  });

  it('leaves the taps of another cluster of this installation on the same broker (one broker registered twice)', async () => {
    const otherCluster = await insertClusterRow(prisma(), { name: `capture-other-${randomUUID()}` });
    const otherSubscription = randomUUID();
    await prisma().sqlSubscription.create({
      data: { id: otherSubscription, clusterId: otherCluster, address: orders, mode: 'CAPTURE' },
    });
    // Its tap on the first node, as its own cluster's pass would have installed it (that cluster has no node rows
    // here and a password no key opens, so the scrape gives it back as soon as it claims it; a capture pass in that
    // moment fails that cluster alone: capture-pass-failure.int.test.ts).
    const theirs = tapNamesOf(deploymentId, orders, otherSubscription, 'nother1');
    const mbean = brokerMbean(nodes[0].name);
    try {
      await jolokiaExec(nodes[0], mbean, 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: theirs.queue, address: theirs.queue, 'routing-type': 'ANYCAST', durable: true }),
        true,
      ]);
      await jolokiaExec(nodes[0], mbean, 'createDivert(java.lang.String)', [
        JSON.stringify({ name: theirs.divert, address: orders, 'forwarding-address': theirs.queue, exclusive: false }),
      ]);
      expect(await reconcile()).toMatchObject({ removed: 0, failed: 0 });
      expect((await diverts(nodes[0])).map((divert) => divert.name)).toContain(theirs.divert);
      expect(await queueNames(nodes[0])).toContain(theirs.queue);
    } finally {
      await jolokiaExec(nodes[0], mbean, 'destroyDivert(java.lang.String)', [theirs.divert]).catch(() => undefined);
      await jolokiaExec(nodes[0], mbean, 'destroyQueue(java.lang.String,boolean,boolean)', [
        theirs.queue,
        true,
        true,
      ]).catch(() => undefined);
      await prisma().sqlSubscription.deleteMany({ where: { id: otherSubscription } });
      await prisma().cluster.deleteMany({ where: { id: otherCluster } });
    }
  });

  it('removes the divert, the queue and the settings from every node when the subscription goes', async () => {
    // A retry subscribes afresh (the first attempt removed the subscription): the removal is what is tested.
    if (!(await prisma().sqlSubscription.findUnique({ where: { id: subscriptionId } }))) {
      subscriptionId = await subscribe(orders);
      expect(await reconcile()).toMatchObject({ failed: 0, refused: 0 });
      await eventually(
        'the new taps installed',
        async () => ((await tapOn(nodes[1], orders, subscriptionId)).divert ? true : undefined),
        30_000,
      );
    }
    const base = tapNamesOf(deploymentId, orders, subscriptionId).queue;
    // One node's tap is left half-removed (its divert gone, its queue kept): its queue is still found as the tap's.
    const halfRemoved = await tapOn(nodes[1], orders, subscriptionId);
    if (halfRemoved.divert)
      await jolokiaExec(nodes[1], brokerMbean(nodes[1].name), 'destroyDivert(java.lang.String)', [
        halfRemoved.divert.name,
      ]);
    // A pass closes a tap's consumer before it destroys the tap's queue: the broker detaches no link
    // (amqp:resource-deleted), so the worker logs no lost tap, neither warning nor error.
    const logs = captureLogLines();
    try {
      await prisma().sqlSubscription.deleteMany({ where: { id: subscriptionId } });
      // The worker's own reconcile job may remove the taps before this pass does (then this one finds nothing to
      // remove): the nodes' state and the audit rows below say that it happened, once per node.
      expect(await reconcile()).toMatchObject({ installed: 0, failed: 0 });
      for (const node of nodes)
        expect(await tapOn(node, orders, subscriptionId)).toEqual({ divert: undefined, queues: [] });
      // A detach reaches the consumer within a moment of the queue's removal: two seconds are ample.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const sqlLines = logs.lines().filter((line) => line.module === 'sql');
      expect(sqlLines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
    } finally {
      logs.restore();
    }
    expect(
      await prisma().auditEvent.count({
        where: { action: 'sql.capture.remove', target: { startsWith: base }, outcome: 'SUCCEEDED' },
      }),
    ).toBe(2);
    expect(await reconcile()).toMatchObject({ installed: 0, removed: 0 });
  });
});
