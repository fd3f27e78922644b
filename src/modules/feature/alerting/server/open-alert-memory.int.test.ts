// The owning worker's copy of open alerts on a real database: kept between ticks while nothing else changed them
// (a value written behind its back is not read again), values the evaluator moves are kept current, and a user's
// silence (a transition committed by the web process) makes the next tick read the alerts again, so the resolution
// of the silenced alert queues no delivery; every announced transition reaches the listener the worker forgets by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOneNodeCluster, recountTotals } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { RestCall } from '@test/rest-call.ts';
import { onAnnouncedTransitions } from './alert-stream.ts';
import { evaluateCluster } from './evaluator.ts';
import { OpenAlertMemory } from './open-alert-memory.ts';

let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;

async function setDepth(depth: number) {
  await secured.runtime.prisma.queueSnapshot.updateMany({
    where: { clusterId, queueName: 'orders' },
    data: { messageCount: BigInt(depth) },
  });
  await recountTotals(secured.runtime.prisma, clusterId);
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call } = await secured.signedIn());
  // The test's listeners are on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
  ({ clusterId } = await insertOneNodeCluster(secured.runtime.prisma, 'memory', [
    { queueName: 'orders', messageCount: 0 },
  ]));
});

afterAll(async () => {
  await secured.close();
});

describe('the open alerts the owning worker keeps', () => {
  it('are kept while nothing else changed them, and read again after a user’s silence', async () => {
    const memory = new OpenAlertMemory();
    const deps = {
      db: secured.runtime.db,
      prisma: secured.runtime.prisma,
      registry: secured.runtime.registry,
      bus: secured.runtime.bus,
      settings: secured.runtime.settings,
      memory,
    };
    const announced: string[] = [];
    onAnnouncedTransitions(secured.runtime.bus, (id) => announced.push(id));
    // A webhook nobody listens to: only the queued rows are looked at.
    const hook = await call('POST', '/alerts/channels', {
      name: 'memory hook',
      config: { kind: 'webhook', url: 'http://127.0.0.1:9/hook' },
    });
    expect(hook.status).toBe(200);
    const rule = await call('POST', '/alerts/rules', {
      name: 'Orders deep',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      pattern: 'orders',
      severity: 'warning',
      forSeconds: 0,
      channelIds: [hook.json.id],
    });
    expect(rule.status).toBe(200);

    await setDepth(500);
    expect(await evaluateCluster(deps, clusterId)).toMatchObject({ transitions: 1 });
    const alert = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { clusterId, subject: 'orders' } });
    expect(alert).toMatchObject({ state: 'firing', lastValue: 500 });
    // Read once, then kept: a value moved by the evaluator is written and kept current.
    await setDepth(600);
    expect(await evaluateCluster(deps, clusterId)).toMatchObject({ transitions: 0 });
    expect((await secured.runtime.prisma.alert.findUniqueOrThrow({ where: { id: alert.id } })).lastValue).toBe(600);
    // A change made behind the evaluator's back (no transition) is not read again: the kept 600 still holds, so
    // nothing is written. Without the copy the evaluator would write 600 over it.
    await secured.runtime.prisma.alert.update({ where: { id: alert.id }, data: { lastValue: 1 } });
    expect(await evaluateCluster(deps, clusterId)).toMatchObject({ transitions: 0 });
    expect((await secured.runtime.prisma.alert.findUniqueOrThrow({ where: { id: alert.id } })).lastValue).toBe(1);
    await evaluateCluster({ ...deps, memory: undefined }, clusterId);
    expect((await secured.runtime.prisma.alert.findUniqueOrThrow({ where: { id: alert.id } })).lastValue).toBe(600);

    // A user silences it in the web process: its transition is newer than the kept copy's, so the next tick reads
    // the alert with its silence, and resolving it queues no notification.
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect(await call('POST', `/alerts/${alert.id}/silence`, { until, reason: 'maintenance' })).toMatchObject({
      status: 200,
    });
    await setDepth(0);
    expect(await evaluateCluster(deps, clusterId)).toMatchObject({ transitions: 1, queuedDeliveries: 0 });
    expect(await secured.runtime.prisma.alert.findUniqueOrThrow({ where: { id: alert.id } })).toMatchObject({
      state: 'resolved',
    });
    expect(await secured.runtime.prisma.alertDelivery.count({ where: { alertId: alert.id, event: 'resolved' } })).toBe(
      0,
    );
    // Every transition was announced on the bus, which the worker forgets its copy by.
    await expect.poll(() => announced.filter((id) => id === clusterId).length, { timeout: 5_000 }).toBe(3);
  });
});
