// A capture on a replicated pair (its own brokers: the primary is killed). The pair is one logical node served by
// the primary, which gets the tap. After kill -9 of the primary the backup activates and becomes the serving node;
// that change starts a reconcile pass at once (the job's own passes are an hour apart here), which installs the tap
// there, and every message sent to the backup after the promotion is indexed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHaPair, type BrokerNode } from '@test/artemis/index.ts';
import { sendOwnAmqpMessage } from '@test/amqp-annotated.ts';
import { eventually } from '@test/eventually.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';
import { startHaScenario, type HaScenario, type RegisteredNode } from '@test/worker-kit.ts';
import { listDiverts, ManagementClient } from '@/modules/platform/broker/index.ts';
import { captureRuntime } from './capture-runtime.ts';
import type { CapturePassOutcome } from './capture-reconciler.ts';
import { loadDeploymentId } from './deployment-id.ts';
import { tapNamesOf } from './tap-names.ts';

const ADDRESS = 'payments.captured';
let scenario: HaScenario;
let primary: RegisteredNode;
let backup: RegisteredNode;
let subscriptionId: string;
let base: string;

const prisma = () => scenario.runtimes.worker.prisma;

async function reconcile(): Promise<CapturePassOutcome> {
  const outcome = (await captureRuntime()?.reconcileOwned())?.find((each) => each.clusterId === scenario.clusterId);
  if (!outcome) throw new Error('the worker does not own the cluster (yet)');
  return outcome;
}

async function tapOn(node: BrokerNode): Promise<{ divert: boolean; queue: boolean }> {
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  try {
    const divert = (await listDiverts(client)).some((each) => each.name.startsWith(base));
    const queues = (await jolokia(node, {
      type: 'read',
      mbean: brokerMbean(node.name),
      attribute: 'QueueNames',
    })) as string[];
    return { divert, queue: queues.some((name) => name.startsWith(base)) };
  } finally {
    client.close();
  }
}

async function send(node: BrokerNode, ids: readonly string[]): Promise<void> {
  const endpoint = { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };
  for (const id of ids) await sendOwnAmqpMessage(endpoint, ADDRESS, { message_id: id, body: id });
}

async function indexed(): Promise<string[]> {
  const rows = await prisma().messageIndex.findMany({ where: { subscriptionId }, select: { messageId: true } });
  return rows.map((row) => row.messageId).sort();
}

beforeAll(async () => {
  scenario = await startHaScenario('capture-ha', await startHaPair(), 1_000, {
    tierB: '10m',
    tierC: '1h',
    settings: { 'sql.capture.reconcile-interval': '1h' },
  });
  [primary, backup] = scenario.nodes as [RegisteredNode, RegisteredNode];
  await createAnycastQueue(primary.broker, ADDRESS);
  subscriptionId = randomUUID();
  await prisma().sqlSubscription.create({
    data: { id: subscriptionId, clusterId: scenario.clusterId, address: ADDRESS, mode: 'CAPTURE' },
  });
  base = tapNamesOf(await loadDeploymentId(scenario.runtimes.worker.db.pool), ADDRESS, subscriptionId).queue;
  await eventually(
    'the worker to own the cluster and tap the primary',
    async () => ((await reconcile().catch(() => undefined))?.live.length === 1 ? true : undefined),
    60_000,
  );
}, 240_000);

afterAll(() => scenario.stop());

describe('a capture on a replicated pair', () => {
  it('taps the serving primary only', async () => {
    expect(await tapOn(primary.broker)).toEqual({ divert: true, queue: true });
    await send(primary.broker, ['p-1', 'p-2']);
    await eventually(
      'the primary’s messages indexed',
      async () => ((await indexed()).length === 2 ? true : undefined),
      20_000,
    );
  });

  it('after kill -9 of the primary, taps the promoted backup at once and indexes what is sent to it', async () => {
    await primary.broker.kill();
    await backup.broker.waitUntilActive(90_000);
    await eventually(
      'the backup serving',
      async () =>
        (await prisma().clusterNode.findMany({ where: { clusterId: scenario.clusterId, serving: true } }))
          .map((node) => node.id)
          .join() === backup.id
          ? true
          : undefined,
      60_000,
    );
    // The job's own passes are an hour apart here: the serving change itself starts the pass that taps the backup.
    await eventually(
      'the promoted backup tapped',
      async () => {
        const tap = await tapOn(backup.broker);
        return tap.divert && tap.queue ? true : undefined;
      },
      30_000,
    );
    const installs = await prisma().auditEvent.findMany({
      where: { action: 'sql.capture.install', clusterId: scenario.clusterId, outcome: 'SUCCEEDED' },
      orderBy: { startedAt: 'asc' },
    });
    expect(installs.map((install) => (install.parameters as { nodeId?: string }).nodeId)).toEqual([
      primary.id,
      backup.id,
    ]);
    const outcome = await reconcile();
    expect(outcome).toMatchObject({ installed: 0, failed: 0 });
    expect(outcome.live.map((tap) => tap.nodeId)).toEqual([backup.id]);

    const after = ['b-1', 'b-2', 'b-3', 'b-4'];
    await send(backup.broker, after);
    await eventually(
      'every message sent after the promotion indexed',
      async () => ((await indexed()).length === 6 ? true : undefined),
      30_000,
    );
    expect(await indexed()).toEqual(['b-1', 'b-2', 'b-3', 'b-4', 'p-1', 'p-2']);
  }, 240_000);

  it('removes the tap from the serving backup when the subscription goes', async () => {
    await prisma().sqlSubscription.delete({ where: { id: subscriptionId } });
    expect(await reconcile()).toMatchObject({ removed: 1 });
    expect(await tapOn(backup.broker)).toEqual({ divert: false, queue: false });
  });
});
