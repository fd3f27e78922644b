// A capture tap across a broker restart, on a broker of its own (a leased one cannot be restarted). What the broker
// keeps is recorded as seen, not assumed: the divert and the address settings made over management are persisted in
// the broker's journal and come back; the capture queue is non-durable and does not. The restart starts a reconcile
// pass without waiting for the job (a serving change, or the capture consumer's refused re-attach): it makes the
// queue again (audited), the consumer attaches anew, and messages sent after the restart are indexed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode } from '@test/artemis/index.ts';
import { sendOwnAmqpMessage } from '@test/amqp-annotated.ts';
import { eventually } from '@test/eventually.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { listDiverts, ManagementClient } from '@/modules/platform/broker/index.ts';
import { captureRuntime } from './capture-runtime.ts';
import type { CapturePassOutcome } from './capture-reconciler.ts';
import { loadDeploymentId } from './deployment-id.ts';
import { tapNamesOf } from './tap-names.ts';

const ADDRESS = 'restart.orders';
let scenario: HaScenario;
let node: BrokerNode;
let subscriptionId: string;
let base: string;

const prisma = () => scenario.runtimes.worker.prisma;

async function reconcile(): Promise<CapturePassOutcome> {
  const outcome = (await captureRuntime()?.reconcileOwned())?.find((each) => each.clusterId === scenario.clusterId);
  if (!outcome) throw new Error('the worker does not own the cluster (yet)');
  return outcome;
}

async function onBroker(): Promise<{ divert: boolean; queue: boolean; settings: Record<string, unknown> }> {
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  try {
    const divert = (await listDiverts(client)).some((each) => each.name.startsWith(base));
    const queues = (await jolokia(node, {
      type: 'read',
      mbean: brokerMbean(node.name),
      attribute: 'QueueNames',
    })) as string[];
    const queue = queues.find((name) => name.startsWith(base));
    const settings = JSON.parse(
      (await jolokia(node, {
        type: 'exec',
        mbean: brokerMbean(node.name),
        operation: 'getAddressSettingsAsJSON(java.lang.String)',
        arguments: [queue ?? `${base}.x`],
      })) as string,
    ) as Record<string, unknown>;
    return { divert, queue: queue !== undefined, settings };
  } finally {
    client.close();
  }
}

async function send(ids: readonly string[]): Promise<void> {
  const endpoint = { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };
  for (const id of ids) await sendOwnAmqpMessage(endpoint, ADDRESS, { message_id: id, body: id });
}

async function indexed(): Promise<string[]> {
  const rows = await prisma().messageIndex.findMany({ where: { subscriptionId }, select: { messageId: true } });
  return rows.map((row) => row.messageId).sort();
}

beforeAll(async () => {
  const topology = await startSingleNode({ name: 'capture-restart' });
  [node] = topology.nodes as [BrokerNode];
  // The job's own passes are an hour apart, so only what the restart itself sets off can mend the tap…
  scenario = await startHaScenario('capture-restart', topology, 500, {
    tierB: '10m',
    tierC: '1h',
    // …and the native connection retries every second or two, so the consumer's re-attach follows the restart soon.
    settings: { 'sql.capture.reconcile-interval': '1h', 'broker.native.reconnect-max-delay': '2s' },
  });
  await createAnycastQueue(node, ADDRESS);
  subscriptionId = randomUUID();
  await prisma().sqlSubscription.create({
    data: { id: subscriptionId, clusterId: scenario.clusterId, address: ADDRESS, mode: 'CAPTURE' },
  });
  base = tapNamesOf(await loadDeploymentId(scenario.runtimes.worker.db.pool), ADDRESS, subscriptionId).queue;
  await eventually('the worker to own the cluster', () => reconcile().catch(() => undefined), 30_000);
}, 180_000);

afterAll(async () => {
  await scenario.stop();
});

describe('a capture tap across a broker restart', () => {
  it('is installed and indexes before the restart', async () => {
    expect(await onBroker()).toMatchObject({ divert: true, queue: true });
    await send(['before-1', 'before-2']);
    await eventually('both indexed', async () => ((await indexed()).length === 2 ? true : undefined), 20_000);
  });

  it('keeps its divert and settings through a restart, and is whole again without waiting for the job’s pass', async () => {
    await node.restart();
    await node.waitUntilActive(60_000);
    // The job's passes are an hour apart here. The non-durable queue is gone after the restart; the node's passing
    // through "not active" is a serving change, and the consumer's re-attach is refused (the tap's address
    // auto-creates nothing): either starts a pass, tried again until management answers, that makes it again.
    await eventually(
      'the tap whole again without a pass asked for',
      async () => {
        const now = await onBroker();
        return now.divert && now.queue ? true : undefined;
      },
      60_000,
    );
    // The second install (its audit row finishes right after the broker's answer) says the queue had to be made again.
    await eventually(
      'the reinstall audited',
      async () =>
        (await prisma().auditEvent.count({
          where: { action: 'sql.capture.install', clusterId: scenario.clusterId, outcome: 'SUCCEEDED' },
        })) === 2
          ? true
          : undefined,
      10_000,
    );
    const whole = await onBroker();
    expect(whole).toMatchObject({ divert: true, queue: true });
    expect(whole.settings).toMatchObject({
      addressFullMessagePolicy: 'DROP',
      autoCreateExpiryResources: false,
      autoCreateQueues: false,
    });
    expect(await reconcile()).toMatchObject({ installed: 0, removed: 0 });

    await send(['after-1', 'after-2', 'after-3']);
    await eventually(
      'the messages sent after the restart indexed',
      async () => ((await indexed()).length === 5 ? true : undefined),
      30_000,
    );
    expect(await indexed()).toEqual(['after-1', 'after-2', 'after-3', 'before-1', 'before-2']);
  }, 240_000);

  it('is removed from the broker when its subscription goes', async () => {
    await prisma().sqlSubscription.delete({ where: { id: subscriptionId } });
    expect(await reconcile()).toMatchObject({ removed: 1 });
    expect(await onBroker()).toMatchObject({ divert: false, queue: false });
  });
});
