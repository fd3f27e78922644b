// Failover on a real replicated pair: the pair is one logical node served by the primary, with its notification
// subscription; after kill -9 of the primary the backup activates, becomes the serving node, and the subscription
// follows it within two tier-A cycles of the first poll that sees it active — delivering the backup's notifications
// to the broker event consumers — with no split-brain on the way. Health (read as the web process reads it) and
// the NOTIFICATIONS capability follow the persisted state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHaPair } from '@test/artemis/index.ts';
import { healthReport } from '@/server/http/health.ts';
import type { BrokerEvent } from '@/modules/platform/broker/index.ts';
import { brokerEventConsumers } from '@/modules/platform/broker/module.ts';
import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { createAnycastQueue, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import {
  startHaScenario,
  type HaScenario,
  type RegisteredNode,
  type TestRuntimes,
  type TierARecorder,
} from '@test/worker-kit.ts';
import { listNodes } from '../server/cluster-query.ts';
import { logicalNodesOf } from './logical-nodes.ts';

const TIER_A_MS = 2_000;

let scenario: HaScenario;
let runtimes: TestRuntimes;
let tierA: TierARecorder;
let clusterId: string;
let primary: RegisteredNode;
let backup: RegisteredNode;
let signals: string[];
const events: BrokerEvent[] = [];

const servingNodes = async () =>
  (await runtimes.web.prisma.clusterNode.findMany({ where: { clusterId, serving: true } })).map((node) => node.id);
const subscriptionRows = () => runtimes.web.prisma.clusterNodeSubscription.findMany({ where: { clusterId } });
const notificationsCapability = () =>
  runtimes.web.prisma.clusterCapability.findUnique({
    where: { clusterId_capability: { clusterId, capability: 'NOTIFICATIONS' } },
  });

beforeAll(async () => {
  // A module of the test's own contributes a consumer, as the events module will.
  const recorder = defineModule({
    id: 'test-event-recorder',
    title: 'Test event recorder',
    layer: 'feature',
    description: 'Keeps every broker event for the test.',
    requires: ['broker'],
    contributions: [
      contribution(brokerEventConsumers, {
        id: 'record',
        load: () => Promise.resolve({ consume: (event: BrokerEvent) => events.push(event) }),
      }),
    ],
  });
  scenario = await startHaScenario('payments-ha', await startHaPair(), TIER_A_MS, undefined, [recorder]);
  ({ runtimes, tierA, clusterId, signals } = scenario);
  [primary, backup] = scenario.nodes as [RegisteredNode, RegisteredNode];
});

afterAll(() => scenario.stop());

describe('HA pair', () => {
  it('is one logical node, served by the primary, with its notification subscription', async () => {
    const nodes = await runtimes.web.prisma.clusterNode.findMany({ where: { clusterId } });
    expect(logicalNodesOf(nodes)).toHaveLength(1);
    expect(nodes.map((node) => node.role).sort()).toEqual(['BACKUP', 'PRIMARY']);

    await waitFor('the primary serving with an established subscription', async () => {
      const rows = await subscriptionRows();
      return rows.length === 1 && rows[0]?.nodeId === primary.id && rows[0].state === 'established';
    });
    expect(await servingNodes()).toEqual([primary.id]);
    expect(await notificationsCapability()).toMatchObject({ value: 'AVAILABLE' });
    expect(signals).toContain('topology');

    const health = await healthReport(runtimes.web);
    expect(health.components.ha).toMatchObject({ status: 'UP' });
    expect(health.components.subscriptions).toMatchObject({
      status: 'UP',
      details: { established: 1, nodes: [{ cluster: 'payments-ha', node: 'primary', state: 'established' }] },
    });
  });

  it('after kill -9 of the primary, serves from the backup and moves the subscription there within two tier-A cycles', async () => {
    const killedAt = Date.now();
    const ticksBefore = tierA.ticks.length;
    await primary.broker.kill();

    const firstActiveTick = await waitFor(
      'a tier-A poll that sees the backup active',
      () => {
        const index = tierA.ticks.findIndex((tick, i) => i >= ticksBefore && tick.backup === 'A');
        return index >= 0 ? index : undefined;
      },
      90_000,
    );
    const sawActiveAt = Date.now();
    await waitFor(
      'the subscription on the backup',
      async () => {
        const rows = await subscriptionRows();
        return rows.length === 1 && rows[0]?.nodeId === backup.id && rows[0].state === 'established';
      },
      2 * TIER_A_MS + 1_000,
    );
    console.log(
      `[ha] backup seen active ${sawActiveAt - killedAt} ms after kill -9; subscription followed after ${
        Date.now() - sawActiveAt
      } ms (tier A every ${TIER_A_MS} ms)`,
    );
    expect(tierA.ticks.length - firstActiveTick).toBeLessThanOrEqual(3);
    expect(await servingNodes()).toEqual([backup.id]);
    // The cluster API's node list says so too, although the dead primary's last polled Active is still true.
    const listed = await listNodes(runtimes.web.prisma, clusterId);
    expect(listed.map((node) => [node.brokerName, node.active, node.serving]).sort()).toEqual([
      ['backup', true, true],
      ['primary', true, false],
    ]);

    // The subscription is real: a queue made on the survivor reaches the broker event consumers from it.
    const queue = uniqueName('after.failover');
    await createAnycastQueue(backup.broker, queue);
    const added = await waitFor('BINDING_ADDED from the backup', () =>
      events.find((event) => event.kind === 'BINDING_ADDED' && event.address === queue),
    );
    expect(added).toMatchObject({ nodeKey: backup.id, clusterKey: clusterId });

    const cluster = await runtimes.web.prisma.cluster.findUniqueOrThrow({ where: { id: clusterId } });
    expect(cluster.splitBrainSince).toBeNull();
    expect(tierA.ticks.some((tick) => tick.primary === 'A' && tick.backup === 'A')).toBe(false);
    expect(await notificationsCapability()).toMatchObject({ value: 'AVAILABLE' });
    const health = await healthReport(runtimes.web);
    expect(health.components.ha).toMatchObject({ status: 'UP' });
    expect(health.components.subscriptions).toMatchObject({
      status: 'UP',
      details: { nodes: [{ node: 'backup', state: 'established' }] },
    });
  });
});
