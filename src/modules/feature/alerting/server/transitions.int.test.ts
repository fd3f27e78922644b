// The alert lifecycle's transitions on a real database and the real stream endpoint: every transition of the
// evaluator is audited with actor `system` and published on the `alerts` topic after its commit (for the cluster
// and for the installation scope, and replayed after a Last-Event-ID); a user's acknowledge, silence and unsilence
// are audited under the user and published too; a subject that fires again within alerting.flap-window reopens its
// alert (flaps counted), its firing notification held and dropped when it resolves meanwhile; the retention job
// deletes resolved alerts (with their deliveries) and transitions older than alerting.retention.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobContext } from '@/modules/kernel/plugin/index.ts';
import { handleStreamRequest, INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { insertOneNodeCluster, recountTotals } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { startHookListener, type HookListener } from '@test/hook-listener.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { RestCall } from '@test/rest-call.ts';
import { TEST_ADMIN } from '@test/sign-in.ts';
import { ALERTING_SETTINGS } from './alerting.settings.ts';
import { deliverDue } from './deliverer.ts';
import { evaluateCluster } from './evaluator.ts';
import { run as runRetention } from './jobs/alerting-retention.job.ts';

let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;
let hook: HookListener;
/** The notifications the listener heard, parsed. */
const received = () =>
  hook.received.map((request) => JSON.parse(request.body) as { event: string; alert: { id: string; subject: string } });

const deps = () => ({
  db: secured.runtime.db,
  prisma: secured.runtime.prisma,
  registry: secured.runtime.registry,
  bus: secured.runtime.bus,
  settings: secured.runtime.settings,
});

async function setDepth(queueName: string, depth: number) {
  await secured.runtime.prisma.queueSnapshot.updateMany({
    where: { clusterId, queueName },
    data: { messageCount: BigInt(depth) },
  });
  await recountTotals(secured.runtime.prisma, clusterId);
}

interface StreamedTransition {
  readonly id: string;
  readonly alertId: string;
  readonly rule: string;
  readonly clusterId: string;
  readonly subject: string;
  readonly state: string;
  readonly severity: string;
  readonly transition: string;
  readonly actor: string;
}

/** An open `alerts` stream of one scope, collecting the transitions it carries. */
function openAlertsStream(scope: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = handleStreamRequest(
    new Request(`http://127.0.0.1/api/v1/stream?clusterId=${scope}&topics=alerts`, {
      headers: lastEventId ? { 'last-event-id': lastEventId } : {},
      signal: controller.signal,
    }),
    { requestId: 'transitions-test', actor: { name: 'test', userId: null }, sourceIp: null },
    {
      hub: secured.runtime.stream,
      replay: secured.runtime.replay,
      enabledTopics: new Set(['alerts']),
      keepAliveMs: () => 1_000,
    },
  );
  const events: StreamedTransition[] = [];
  void (async () => {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const chunk = await reader.read().catch(() => undefined);
      if (!chunk || chunk.done) return;
      text += decoder.decode(chunk.value, { stream: true });
      let end = text.indexOf('\n\n');
      while (end >= 0) {
        const message = text.slice(0, end);
        text = text.slice(end + 2);
        const id = /^id: (.*)$/m.exec(message)?.[1];
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (/^event: alerts$/m.test(message) && id && data)
          events.push({ id, ...(JSON.parse(data) as object) } as StreamedTransition);
        end = text.indexOf('\n\n');
      }
    }
  })();
  return { events, close: () => controller.abort() };
}

async function stateOf(id: string) {
  return secured.runtime.prisma.alert.findUniqueOrThrow({ where: { id } });
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call } = await secured.signedIn());
  // The test's listeners are on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
  ({ clusterId } = await insertOneNodeCluster(secured.runtime.prisma, 'transitions', [
    { queueName: 'orders', messageCount: 0 },
    { queueName: 'flappy', messageCount: 0 },
    { queueName: 'quiet', messageCount: 0 },
  ]));
  hook = await startHookListener();
});

afterAll(async () => {
  await hook.close();
  await secured.close();
});

let ordersAlertId: string;

describe('the evaluator’s transitions', () => {
  it('are audited as system and published on the alerts topic after their commit, to the cluster’s subscribers only', async () => {
    const cluster = openAlertsStream(clusterId);
    const everywhere = openAlertsStream(INSTALLATION_SCOPE_ID);
    const rule = await call('POST', '/alerts/rules', {
      name: 'Orders backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      pattern: 'orders',
      severity: 'critical',
      forSeconds: 30,
    });
    expect(rule.status).toBe(200);
    const t0 = Date.now();
    await setDepth('orders', 500);
    expect(await evaluateCluster(deps(), clusterId, new Date(t0))).toMatchObject({ transitions: 1 });
    expect(await evaluateCluster(deps(), clusterId, new Date(t0 + 31_000))).toMatchObject({ transitions: 1 });
    await setDepth('orders', 0);
    expect(await evaluateCluster(deps(), clusterId, new Date(t0 + 40_000))).toMatchObject({ transitions: 1 });
    // A tick with nothing to change writes no audit row.
    expect(await evaluateCluster(deps(), clusterId, new Date(t0 + 50_000))).toMatchObject({ transitions: 0 });

    const alert = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { subject: 'orders' } });
    ordersAlertId = alert.id;
    const expected = ['pending', 'firing', 'resolved'].map((transition) => ({
      alertId: alert.id,
      rule: 'Orders backlog',
      clusterId,
      subject: 'orders',
      state: transition,
      severity: 'critical',
      transition,
      actor: 'system',
    }));
    await vi.waitFor(() => expect(cluster.events).toMatchObject(expected), { timeout: 5_000 });
    // The installation scope is open to anyone signed in: it carries no transition (only the data-less signal).
    expect(everywhere.events).toEqual([]);
    expect(cluster.events.every((event) => /^a\d+$/.test(event.id))).toBe(true);
    cluster.close();
    everywhere.close();

    const audits = await secured.runtime.prisma.auditEvent.findMany({
      where: { action: 'alert.transition' },
      orderBy: { startedAt: 'asc' },
    });
    expect(audits).toHaveLength(3);
    expect(audits.map((row) => [row.actor, row.outcome, row.clusterId, row.target])).toEqual(
      Array(3).fill(['system', 'SUCCEEDED', clusterId, 'transitions']),
    );
    expect(audits.map((row) => (row.parameters as { transitions: unknown[] }).transitions)).toEqual(
      ['pending', 'firing', 'resolved'].map((transition) => [
        { alert: alert.id, rule: 'Orders backlog', subject: 'orders', transition },
      ]),
    );
  });

  it('are replayed to a client coming back with its Last-Event-ID', async () => {
    const first = await secured.runtime.prisma.alertTransition.findFirstOrThrow({ orderBy: { seq: 'asc' } });
    const replayed = openAlertsStream(clusterId, `a${first.seq}`);
    await vi.waitFor(() => expect(replayed.events.map((event) => event.transition)).toEqual(['firing', 'resolved']), {
      timeout: 5_000,
    });
    replayed.close();
  });
});

describe('a user’s transitions', () => {
  it('acknowledge, silence and unsilence are audited under the user and published', async () => {
    const stream = openAlertsStream(clusterId);
    // Within the flap window of its resolution: the same alert reopens, firing.
    await setDepth('orders', 500);
    expect(await evaluateCluster(deps(), clusterId, new Date(Date.now() + 60_000))).toMatchObject({ transitions: 1 });
    const open = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { subject: 'orders', state: 'firing' } });
    expect(open).toMatchObject({ id: ordersAlertId, flapCount: 1 });

    expect(await call('POST', `/alerts/${open.id}/acknowledge`, { dryRun: true })).toMatchObject({ status: 200 });
    expect(await call('POST', `/alerts/${open.id}/acknowledge`, {})).toMatchObject({ status: 200 });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect(await call('POST', `/alerts/${open.id}/silence`, { until, reason: 'deploying' })).toMatchObject({
      status: 200,
      json: { silencedUntil: until, silenceReason: 'deploying' },
    });
    expect(await call('POST', `/alerts/${open.id}/unsilence`, { dryRun: true })).toMatchObject({
      status: 200,
      json: { silencedUntil: until, dryRun: true },
    });
    expect(await call('POST', `/alerts/${open.id}/unsilence`, {})).toMatchObject({
      status: 200,
      json: { silencedUntil: null, silenceReason: null },
    });
    expect(await call('POST', `/alerts/${open.id}/unsilence`, {})).toMatchObject({
      status: 400,
      json: { type: 'validation-failed' },
    });
    expect(await call('POST', `/alerts/00000000-0000-4000-8000-000000000000/unsilence`, {})).toMatchObject({
      status: 404,
    });

    await vi.waitFor(
      () =>
        expect(
          stream.events.filter((event) => event.alertId === open.id).map((event) => [event.transition, event.actor]),
        ).toEqual([
          ['reopened', 'system'],
          ['acknowledged', TEST_ADMIN.username],
          ['silenced', TEST_ADMIN.username],
          ['unsilenced', TEST_ADMIN.username],
        ]),
      { timeout: 5_000 },
    );
    stream.close();
    const audited = await secured.runtime.prisma.auditEvent.findMany({
      where: { action: { in: ['alert.acknowledge', 'alert.silence', 'alert.unsilence'] }, dryRun: false },
      orderBy: { startedAt: 'asc' },
    });
    expect(audited.map((row) => [row.action, row.actor, row.outcome])).toEqual([
      ['alert.acknowledge', TEST_ADMIN.username, 'SUCCEEDED'],
      ['alert.silence', TEST_ADMIN.username, 'SUCCEEDED'],
      ['alert.unsilence', TEST_ADMIN.username, 'SUCCEEDED'],
    ]);
    // Dry runs published nothing: one transition row each.
    expect(
      await secured.runtime.prisma.alertTransition.count({ where: { alertId: open.id, actor: TEST_ADMIN.username } }),
    ).toBe(3);
  });

  it('a silence that runs out is unsilenced by the evaluator (actor system)', async () => {
    const open = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { subject: 'orders', state: 'firing' } });
    const until = new Date(Date.now() + 60_000);
    await call('POST', `/alerts/${open.id}/silence`, { until: until.toISOString(), reason: 'a minute' });
    await evaluateCluster(deps(), clusterId, new Date(until.getTime() - 1_000));
    expect(await stateOf(open.id)).toMatchObject({ silenceReason: 'a minute' });
    expect(await evaluateCluster(deps(), clusterId, new Date(until.getTime() + 1_000))).toMatchObject({
      transitions: 1,
    });
    expect(await stateOf(open.id)).toMatchObject({ silencedUntil: null, silenceReason: null, state: 'firing' });
    const last = await secured.runtime.prisma.alertTransition.findFirstOrThrow({
      where: { alertId: open.id },
      orderBy: { seq: 'desc' },
    });
    expect(last).toMatchObject({ transition: 'unsilenced', actor: 'system', state: 'firing' });
  });
});

describe('flapping', () => {
  it('reopens the same alert within the flap window, holding its notification and dropping it when it resolves', async () => {
    const channel = await call('POST', '/alerts/channels', {
      name: 'flaps',
      config: { kind: 'webhook', url: hook.url },
    });
    await call('POST', '/alerts/rules', {
      name: 'Flappy',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 10 } },
      pattern: 'flappy',
      channelIds: [channel.json.id],
    });
    const window = secured.runtime.settings.duration(ALERTING_SETTINGS.flapWindow);
    expect(window).toBe(300_000);
    const t0 = Date.now();
    const tick = async (seconds: number, depth: number) => {
      await setDepth('flappy', depth);
      const summary = await evaluateCluster(deps(), clusterId, new Date(t0 + seconds * 1_000));
      await deliverDue(deps(), new Date(t0 + seconds * 1_000));
      return summary;
    };
    const heard = () =>
      received()
        .filter((notification) => notification.alert.subject === 'flappy')
        .map((n) => n.event);

    expect(await tick(0, 50)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(await tick(10, 0)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(heard()).toEqual(['firing', 'resolved']);
    const first = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { subject: 'flappy' } });

    // Fires again a minute later: the same alert reopens, its firing notification held for the window.
    expect(await tick(70, 50)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(await stateOf(first.id)).toMatchObject({ state: 'firing', resolvedAt: null, flapCount: 1 });
    const held = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({
      where: { alertId: first.id, status: 'pending' },
    });
    expect(held.response).toMatch(/^held/);
    expect(held.nextAttemptAt?.getTime()).toBe(t0 + 70_000 + window);
    // Resolves again before the window ends: neither the held firing nor the resolution is sent.
    expect(await tick(100, 0)).toMatchObject({ transitions: 1, queuedDeliveries: 0 });
    expect(await secured.runtime.prisma.alertDelivery.count({ where: { alertId: first.id, status: 'pending' } })).toBe(
      0,
    );
    expect(heard()).toEqual(['firing', 'resolved']);

    // Reopens once more and keeps firing past the window: the held notification goes out then, once.
    expect(await tick(130, 50)).toMatchObject({ transitions: 1 });
    expect(await stateOf(first.id)).toMatchObject({ state: 'firing', flapCount: 2 });
    await tick(200, 50);
    expect(heard()).toEqual(['firing', 'resolved']);
    await tick(130 + window / 1_000 + 1, 50);
    expect(heard()).toEqual(['firing', 'resolved', 'firing']);
    expect(await tick(130 + window / 1_000 + 20, 0)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(heard()).toEqual(['firing', 'resolved', 'firing', 'resolved']);
    expect(await call('GET', '/alerts?view=all&q=flappy')).toMatchObject({
      json: { total: 1, items: [{ id: first.id, flapCount: 2, state: 'resolved' }] },
    });
    expect(
      (
        await secured.runtime.prisma.alertTransition.findMany({ where: { alertId: first.id }, orderBy: { seq: 'asc' } })
      ).map((row) => row.transition),
    ).toEqual(['firing', 'resolved', 'reopened', 'resolved', 'reopened', 'resolved']);

    // Past the window it is a new alert, and with the window set to 0 damping is off.
    const later = 130 + window / 1_000 + 20 + window / 1_000 + 1;
    expect(await tick(later, 50)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(await call('GET', '/alerts?view=all&q=flappy')).toMatchObject({ json: { total: 2 } });
    expect(await call('PUT', '/settings/alerting.flap-window', { value: '0s' })).toMatchObject({ status: 200 });
    await vi.waitFor(() => expect(secured.runtime.settings.duration(ALERTING_SETTINGS.flapWindow)).toBe(0), {
      timeout: 5_000,
    });
    await tick(later + 10, 0);
    expect(await tick(later + 20, 50)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(await call('GET', '/alerts?view=all&q=flappy')).toMatchObject({ json: { total: 3 } });
  });
});

describe('silencing', () => {
  it('cancels what the alert has not yet said (a held notification), keeping it on the log as failed', async () => {
    expect(await call('PUT', '/settings/alerting.flap-window', { value: '5m' })).toMatchObject({ status: 200 });
    await vi.waitFor(() => expect(secured.runtime.settings.duration(ALERTING_SETTINGS.flapWindow)).toBe(300_000), {
      timeout: 5_000,
    });
    const channel = await secured.runtime.prisma.alertChannel.findFirstOrThrow({ where: { name: 'flaps' } });
    await call('POST', '/alerts/rules', {
      name: 'Quiet',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 10 } },
      pattern: 'quiet',
      channelIds: [channel.id],
    });
    // Later than every evaluation before, so this test's ticks move only its own alert.
    const t0 = Date.now() + 7_200_000;
    const tick = async (seconds: number, depth: number) => {
      await setDepth('quiet', depth);
      await evaluateCluster(deps(), clusterId, new Date(t0 + seconds * 1_000));
      await deliverDue(deps(), new Date(t0 + seconds * 1_000));
    };
    const heard = () =>
      received()
        .filter((notification) => notification.alert.subject === 'quiet')
        .map((n) => n.event);
    await tick(0, 50);
    await tick(10, 0);
    await tick(20, 50);
    expect(heard()).toEqual(['firing', 'resolved']);
    const alert = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { subject: 'quiet' } });
    expect(alert).toMatchObject({ state: 'firing', flapCount: 1 });
    const until = new Date(t0 + 3 * 3_600_000).toISOString();
    expect(await call('POST', `/alerts/${alert.id}/silence`, { until, reason: 'maintenance' })).toMatchObject({
      status: 200,
    });
    const log = await call('GET', `/alerts/${alert.id}/deliveries`);
    expect(log.json.items).toMatchObject([
      { event: 'firing', status: 'delivered' },
      { event: 'resolved', status: 'delivered' },
      { event: 'firing', status: 'failed', response: 'cancelled: the alert was silenced', nextAttemptAt: null },
    ]);
    await tick(20 + 301, 50);
    await tick(20 + 400, 0);
    expect(heard()).toEqual(['firing', 'resolved']);
  });
});

describe('retention', () => {
  it('deletes resolved alerts with their deliveries, old test sends and old transitions; keeps the rest', async () => {
    expect(await call('PUT', '/settings/alerting.retention', { value: '1x' })).toMatchObject({ status: 400 });
    expect(await call('PUT', '/settings/alerting.retention', { value: '7d' })).toMatchObject({ status: 200 });
    await vi.waitFor(
      () => expect(secured.runtime.settings.duration(ALERTING_SETTINGS.retention)).toBe(7 * 86_400_000),
      {
        timeout: 5_000,
      },
    );
    const { prisma } = secured.runtime;
    const old = new Date(Date.now() - 8 * 86_400_000);
    const recent = new Date(Date.now() - 6 * 86_400_000);
    // One alert resolved long ago, another recently; an open alert is never deleted, however old.
    const flappy = await prisma.alert.findMany({
      where: { subject: 'flappy', state: 'resolved' },
      orderBy: { since: 'asc' },
    });
    expect(flappy.length).toBeGreaterThanOrEqual(2);
    await prisma.alert.update({ where: { id: flappy[0]?.id ?? '' }, data: { resolvedAt: old } });
    await prisma.alert.update({ where: { id: flappy[1]?.id ?? '' }, data: { resolvedAt: recent } });
    await prisma.alert.update({ where: { id: ordersAlertId }, data: { since: old, firedAt: old } });
    const channel = await prisma.alertChannel.findFirstOrThrow();
    await prisma.alertDelivery.create({
      data: { id: randomUUID(), channelId: channel.id, event: 'test', payload: {}, status: 'delivered', at: old },
    });
    await prisma.alertTransition.updateMany({ where: { alertId: flappy[0]?.id }, data: { at: old } });
    const oldDeliveries = await prisma.alertDelivery.count({ where: { alertId: flappy[0]?.id } });
    expect(oldDeliveries).toBeGreaterThan(0);
    const oldTransitions = await prisma.alertTransition.count({ where: { alertId: flappy[0]?.id } });
    const transitionsBefore = await prisma.alertTransition.count();

    const logged: string[] = [];
    const context: JobContext = {
      jobId: 'alerting.retention',
      instanceId: 'test',
      signal: new AbortController().signal,
      settings: secured.runtime.settings,
      db: {
        execute: async (sql, params) => ({
          rowCount: (await secured.runtime.db.pool.query(sql, [...(params ?? [])])).rowCount ?? 0,
        }),
      },
      publishSignal: () => Promise.resolve(),
      log: (message) => logged.push(message),
    };
    const result = await runRetention(context);
    expect(result.summary).toContain(`: 1 resolved alerts, 1 test sends and ${oldTransitions} transitions deleted`);

    expect(await prisma.alert.findUnique({ where: { id: flappy[0]?.id ?? '' } })).toBeNull();
    expect(await prisma.alertDelivery.count({ where: { alertId: flappy[0]?.id } })).toBe(0);
    expect(await prisma.alert.findUnique({ where: { id: flappy[1]?.id ?? '' } })).not.toBeNull();
    expect(await prisma.alert.findUnique({ where: { id: ordersAlertId } })).not.toBeNull();
    expect(await prisma.alertDelivery.count({ where: { alertId: null, at: { lt: recent } } })).toBe(0);
    expect(await prisma.alertTransition.count()).toBe(transitionsBefore - oldTransitions);
    expect(oldTransitions).toBeGreaterThan(0);
  });
});
