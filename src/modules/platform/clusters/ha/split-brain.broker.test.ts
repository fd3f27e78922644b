// A real split-brain: the pair's replication link runs through the test kit's fault proxy. Cutting it makes the
// backup activate while the primary stays active; the split-brain signal is raised only after consecutive tier-A
// polls corroborate it (persisted, `topology` and `health` signals, DOWN in health naming cluster and logical node,
// the cluster API's `splitBrain`), both serving members get a subscription; healing the link and restarting the
// rogue backup (it comes back passive and re-syncs) clears it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHaPairBehindProxy, type HaPairBehindProxy } from '@test/artemis/ha-pair-behind-proxy.ts';
import { healthReport } from '@/server/http/health.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { startHaScenario, type HaScenario, type TestRuntimes, type TierARecorder } from '@test/worker-kit.ts';
import { RAISE_AFTER } from './split-brain-ratchet.ts';
import { listSplitBrains, splitBrainOf } from './split-brain-query.ts';

const TIER_A_MS = 2_000;

let scenario: HaScenario;
let pair: HaPairBehindProxy;
let runtimes: TestRuntimes;
let tierA: TierARecorder;
let clusterId: string;
let signals: string[];

const clusterRow = () => runtimes.web.prisma.cluster.findUniqueOrThrow({ where: { id: clusterId } });

beforeAll(async () => {
  pair = await startHaPairBehindProxy();
  scenario = await startHaScenario('orders-ha', pair, TIER_A_MS);
  ({ runtimes, tierA, clusterId, signals } = scenario);
  await waitFor(
    'the primary serving',
    async () => (await runtimes.web.prisma.clusterNode.count({ where: { clusterId, serving: true } })) === 1,
  );
});

afterAll(() => scenario.stop());

describe('split-brain', () => {
  it('is raised after corroboration when the cut replication link leaves both members active', async () => {
    pair.replicationLink.setMode({ kind: 'cut' });
    await pair.backup.waitUntilActive(90_000);
    const primaryState = await pair.primary.readBrokerAttributes(['Active']);
    expect(primaryState?.Active).toBe(true);

    const raised = await waitFor(
      'the split-brain verdict',
      async () => (await clusterRow()).splitBrainSince ?? undefined,
      30_000,
    );
    // Corroborated: at least RAISE_AFTER consecutive polls saw both active up to the pass that raised the verdict.
    // (The recorder handles each pass just after the reconciler, so it may trail the persisted verdict briefly.)
    const raisingTick = await waitFor('the recorder to see the raising pass', () => {
      const index = tierA.splitBrainAfter.indexOf(true);
      return index >= 0 ? index : undefined;
    });
    const firstDual = tierA.ticks.findIndex((tick) => tick.primary === 'A' && tick.backup === 'A');
    expect(firstDual).toBeGreaterThanOrEqual(0);
    const dualTicks = tierA.ticks
      .slice(firstDual, raisingTick + 1)
      .filter((tick) => tick.primary === 'A' && tick.backup === 'A');
    expect(dualTicks.length).toBeGreaterThanOrEqual(RAISE_AFTER);
    expect(raised.getTime()).toBeLessThanOrEqual(Date.now());

    expect(await splitBrainOf(runtimes.web.prisma, clusterId)).toBe(true);
    const [split] = await listSplitBrains(runtimes.web.prisma, clusterId);
    expect(split?.nodes.map((node) => node.name).sort()).toEqual(['backup', 'primary']);
    await waitFor('topology and health signals', () => signals.includes('topology') && signals.includes('health'));

    const health = await healthReport(runtimes.web);
    expect(health.status).toBe('DOWN');
    const ha = health.components.ha;
    expect(ha?.status).toBe('DOWN');
    expect(JSON.stringify(ha?.details)).toContain('split-brain in cluster orders-ha: logical node');
    expect(ha?.details).toMatchObject({ severity: 'critical', splitBrains: [{ cluster: 'orders-ha' }] });

    // Both members serve clients, so both get a notification subscription.
    const nodes = await runtimes.web.prisma.clusterNode.findMany({ where: { clusterId } });
    expect(nodes.every((node) => node.serving)).toBe(true);
    await waitFor('subscriptions on both members', async () => {
      const rows = await runtimes.web.prisma.clusterNodeSubscription.findMany({ where: { clusterId } });
      return rows.length === 2 && rows.every((row) => row.state === 'established');
    });
  });

  it('clears once the link is healed and the rogue backup is back to passive', async () => {
    const signalsBefore = signals.length;
    pair.replicationLink.setMode({ kind: 'pass' });
    await pair.backup.restart();
    await pair.backup.waitUntilReplicaInSync(90_000);

    await waitFor('the split-brain cleared', async () => (await clusterRow()).splitBrainSince === null, 30_000);
    expect(await splitBrainOf(runtimes.web.prisma, clusterId)).toBe(false);
    const serving = await runtimes.web.prisma.clusterNode.findMany({ where: { clusterId, serving: true } });
    expect(serving.map((node) => node.brokerName)).toEqual(['primary']);
    await waitFor('a topology signal for the clearing', () => signals.slice(signalsBefore).includes('topology'));
    await waitFor('only the primary subscribed', async () => {
      const rows = await runtimes.web.prisma.clusterNodeSubscription.findMany({ where: { clusterId } });
      return rows.length === 1 && rows[0]?.nodeId === serving[0]?.id;
    });
    const health = await healthReport(runtimes.web);
    expect(health.components.ha).toMatchObject({ status: 'UP', details: { splitBrains: [] } });
  });
});
