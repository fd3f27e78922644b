// Alerting on a real database, no broker: channels sealed by the vault and their signed test sends to a local
// listener; rules refused when their condition or parameters are wrong, and their dry run answering what would
// fire now; the lifecycle over scraped queue rows (pending for the for-duration, firing once with a signed
// delivery, acknowledged, silenced, resolved without a word); built-in rules installed once; a failing channel
// retried later without holding evaluation.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOneNodeCluster, recountTotals } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { RestCall } from '@test/rest-call.ts';
import { createTrpcHandler } from '@/server/http/trpc-route.ts';
import type { AuthHeaders } from '@test/sign-in.ts';
import { signatureOf, SIGNATURE_HEADER } from './channels.ts';
import { deliverDue } from './deliverer.ts';
import { evaluateCluster, installBuiltInRules } from './evaluator.ts';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let secured: SecuredRuntime;
let auth: AuthHeaders;
let call: RestCall;
let clusterId: string;
let nodeId: string;
let listener: Server;
let listenerUrl: string;
const received: Received[] = [];
const SECRET = 'a-signing-secret-of-the-test';

const deps = () => ({
  db: secured.runtime.db,
  prisma: secured.runtime.prisma,
  registry: secured.runtime.registry,
  settings: secured.runtime.settings,
});

async function setDepth(queueName: string, depth: number) {
  await secured.runtime.prisma.queueSnapshot.updateMany({
    where: { clusterId, queueName },
    data: { messageCount: BigInt(depth) },
  });
  await recountTotals(secured.runtime.prisma, clusterId);
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ auth, call } = await secured.signedIn());
  // The test's listeners are on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
  ({ clusterId, nodeId } = await insertOneNodeCluster(secured.runtime.prisma, 'alerted', [
    { queueName: 'orders.in', messageCount: 50 },
    { queueName: 'orders.out', messageCount: 2 },
    { queueName: 'billing', messageCount: 500 },
  ]));
  listener = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks/flotilla`;
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await secured.close();
});

let channelId: string;

describe('notification channels', () => {
  it('are created sealed, listed by origin only, and a dry run creates nothing', async () => {
    const dry = await call('POST', '/alerts/channels', {
      name: 'ops-hook',
      config: { kind: 'webhook', url: listenerUrl, secret: SECRET },
      dryRun: true,
    });
    expect(dry).toMatchObject({ status: 200, json: { dryRun: true, kind: 'webhook' } });
    expect(await secured.runtime.prisma.alertChannel.count()).toBe(0);

    const created = await call('POST', '/alerts/channels', {
      name: 'ops-hook',
      config: { kind: 'webhook', url: listenerUrl, secret: SECRET },
    });
    expect(created.status).toBe(200);
    channelId = created.json.id as string;
    const row = await secured.runtime.prisma.alertChannel.findUniqueOrThrow({ where: { id: channelId } });
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain('/hooks/flotilla');

    const list = await call('GET', '/alerts/channels');
    expect(list.json).toMatchObject({
      total: 1,
      items: [
        { id: channelId, name: 'ops-hook', kind: 'webhook', target: new URL(listenerUrl).origin, lastDelivery: null },
      ],
    });
    expect(JSON.stringify(list.json)).not.toContain(SECRET);

    const taken = await call('POST', '/alerts/channels', {
      name: 'ops-hook',
      config: { kind: 'slack', url: listenerUrl },
    });
    expect(taken).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
  });

  it('send a signed test notification, logged and audited', async () => {
    received.length = 0;
    const sent = await call('POST', `/alerts/channels/${channelId}/test`, {});
    expect(sent).toMatchObject({ status: 200, json: { delivered: true, dryRun: false } });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.headers[SIGNATURE_HEADER]).toBe(signatureOf(SECRET, request?.body ?? ''));
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ event: 'test', alert: { subject: 'ops-hook' } });
    expect(await secured.runtime.prisma.alertDelivery.findFirst({ where: { channelId, event: 'test' } })).toMatchObject(
      { status: 'delivered', attempt: 1 },
    );
    expect(
      await secured.runtime.prisma.auditEvent.findFirst({ where: { action: 'alert.channel.test' } }),
    ).toMatchObject({ outcome: 'SUCCEEDED', target: 'ops-hook' });
  });

  it('show each channel’s last delivery, so a broken one reads as failing in the list', async () => {
    // Nothing listens on port 9 of loopback: the send is refused.
    const broken = await call('POST', '/alerts/channels', {
      name: 'broken-hook',
      config: { kind: 'webhook', url: 'http://127.0.0.1:9/hook' },
    });
    expect(await call('POST', `/alerts/channels/${broken.json.id as string}/test`, {})).toMatchObject({
      status: 200,
      json: { delivered: false },
    });
    const list = await call('GET', '/alerts/channels?sort=name');
    const byName = new Map(
      (list.json.items as { name: string; lastDelivery: unknown }[]).map((item) => [item.name, item.lastDelivery]),
    );
    const last = (name: string) => byName.get(name) as { status: string; event: string; response: string | null };
    expect(last('ops-hook')).toMatchObject({ status: 'delivered', event: 'test' });
    expect(last('ops-hook').response).toMatch(/^204/);
    expect(last('broken-hook')).toMatchObject({ status: 'failed', event: 'test' });
    expect(last('broken-hook').response).toBeTruthy();
    expect(await call('DELETE', `/alerts/channels/${broken.json.id as string}`, {})).toMatchObject({ status: 200 });
  });

  it('speak Slack’s {text} to a Slack-compatible webhook', async () => {
    const slack = await call('POST', '/alerts/channels', {
      name: 'slack',
      config: { kind: 'slack', url: listenerUrl },
    });
    received.length = 0;
    await call('POST', `/alerts/channels/${slack.json.id as string}/test`, {});
    expect(JSON.parse(received[0]?.body ?? '{}')).toEqual({ text: 'Test from Flotilla: Test notification — slack' });
    expect(received[0]?.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(await call('DELETE', `/alerts/channels/${slack.json.id as string}`, {})).toMatchObject({
      status: 200,
      json: { deleted: true },
    });
  });
});

describe('alert rules', () => {
  it('refuse an unknown condition, parameters it refuses, and a channel that does not exist', async () => {
    expect(
      await call('POST', '/alerts/rules', { name: 'x', condition: { kind: 'no-such-thing', params: {} } }),
    ).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
    expect(
      await call('POST', '/alerts/rules', {
        name: 'x',
        condition: { kind: 'queue-threshold', params: { metric: 'height', threshold: 1 } },
      }),
    ).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
    expect(
      await call('POST', '/alerts/rules', {
        name: 'x',
        condition: { kind: 'node-down', params: {} },
        channelIds: ['00000000-0000-4000-8000-000000000000'],
      }),
    ).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
  });

  it('answer in a dry run what would fire now, and store nothing', async () => {
    const dry = await call('POST', '/alerts/rules', {
      name: 'orders backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 10 } },
      pattern: 'orders.*',
      dryRun: true,
    });
    expect(dry.status).toBe(200);
    expect(dry.json.wouldFire).toEqual([{ clusterId, cluster: 'alerted', subject: 'orders.in', value: 50 }]);
    expect(await secured.runtime.prisma.alertRule.count()).toBe(0);
    expect(await secured.runtime.prisma.auditEvent.findFirst({ where: { action: 'alert.rule.create' } })).toMatchObject(
      { dryRun: true, outcome: 'SUCCEEDED' },
    );
  });

  it('preview a draft in the editor with a read: the same answer as a dry run, and no audit row', async () => {
    const trpc = createTrpcHandler(() => Promise.resolve(secured.runtime));
    const draft = {
      name: 'orders backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 10 } },
      pattern: 'orders.*',
    };
    const before = await secured.runtime.prisma.auditEvent.count();
    const answer = await trpc(
      new Request(`http://127.0.0.1/api/trpc/alerting.previewRule?input=${encodeURIComponent(JSON.stringify(draft))}`, {
        headers: auth,
      }),
    );
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { result: { data: { wouldFire: unknown[] } } };
    expect(body.result.data.wouldFire).toEqual([{ clusterId, cluster: 'alerted', subject: 'orders.in', value: 50 }]);
    expect(await secured.runtime.prisma.auditEvent.count()).toBe(before);
    expect(await secured.runtime.prisma.alertRule.count()).toBe(0);
  });

  it('refuse a pattern past its limit, and preview a hostile one against long names at once', async () => {
    const tooLong = 'q'.repeat(301);
    const create = { name: 'long', condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 1 } } };
    for (const dryRun of [true, false]) {
      expect(await call('POST', '/alerts/rules', { ...create, pattern: tooLong, dryRun })).toMatchObject({
        status: 400,
        json: { type: 'validation-failed' },
      });
    }
    const { clusterId: longNames } = await insertOneNodeCluster(secured.runtime.prisma, 'long-names', [
      { queueName: 'a'.repeat(33), messageCount: 5 },
      { queueName: 'a'.repeat(250), messageCount: 5 },
    ]);
    // A backtracking regex of this pattern took 8 s on the 33-character name (issue 25).
    const started = Date.now();
    const hostile = await call('POST', '/alerts/rules', {
      ...create,
      clusterId: longNames,
      pattern: `${'*a'.repeat(149)}*b`,
      dryRun: true,
    });
    expect(hostile).toMatchObject({ status: 200, json: { wouldFire: [] } });
    expect(Date.now() - started).toBeLessThan(5_000);
    const anyA = await call('POST', '/alerts/rules', {
      ...create,
      clusterId: longNames,
      pattern: '*a?a*',
      dryRun: true,
    });
    expect(anyA.json.wouldFire).toHaveLength(2);
    expect(await secured.runtime.prisma.alertRule.count()).toBe(0);
    const created = await call('POST', '/alerts/rules', { ...create, clusterId: longNames, pattern: 'a*' });
    const id = (created.json.rule as { id: string }).id;
    expect(await call('PATCH', `/alerts/rules/${id}`, { pattern: tooLong })).toMatchObject({
      status: 400,
      json: { type: 'validation-failed' },
    });
    expect(await call('DELETE', `/alerts/rules/${id}`, {})).toMatchObject({ status: 200 });
  });

  it('are listed, changed and deleted, each change audited', async () => {
    const created = await call('POST', '/alerts/rules', {
      name: 'billing huge',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 1000 } },
      clusterId,
    });
    const id = (created.json.rule as { id: string }).id;
    const preview = await call('PATCH', `/alerts/rules/${id}`, {
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      dryRun: true,
    });
    expect(preview.json.wouldFire).toEqual([{ clusterId, cluster: 'alerted', subject: 'billing', value: 500 }]);
    const stored = await secured.runtime.prisma.alertRule.findUniqueOrThrow({ where: { id } });
    expect(stored.params).toMatchObject({ threshold: 1000 });

    expect(await call('PATCH', `/alerts/rules/${id}`, { severity: 'critical', enabled: false })).toMatchObject({
      status: 200,
      json: { rule: { severity: 'critical', enabled: false } },
    });
    const list = await call('GET', '/alerts/rules?q=billing');
    expect(list.json).toMatchObject({ total: 1, items: [{ id, severity: 'critical', enabled: false }] });
    expect(await call('DELETE', `/alerts/rules/${id}`, {})).toMatchObject({ status: 200, json: { deleted: true } });
    expect(await call('DELETE', `/alerts/rules/${id}`, {})).toMatchObject({ status: 404 });
    const actions = await secured.runtime.prisma.auditEvent.findMany({
      where: { action: { startsWith: 'alert.rule' }, target: 'billing huge' },
      select: { action: true, dryRun: true },
      orderBy: { startedAt: 'asc' },
    });
    expect(actions.map((row) => `${row.action}${row.dryRun ? ' (dry run)' : ''}`)).toEqual([
      'alert.rule.create',
      'alert.rule.update (dry run)',
      'alert.rule.update',
      'alert.rule.delete',
    ]);
  });
});

describe('the alert lifecycle', () => {
  it('goes pending → firing (delivered, signed) → acknowledged → silenced → resolved without delivering', async () => {
    const created = await call('POST', '/alerts/rules', {
      name: 'orders backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 10 } },
      pattern: 'orders.*',
      severity: 'critical',
      forSeconds: 30,
      labels: { team: 'orders' },
      channelIds: [channelId],
    });
    expect(created.status).toBe(200);
    const t0 = Date.now();

    await evaluateCluster(deps(), clusterId, new Date(t0));
    const pending = await call('GET', '/alerts?view=open');
    expect(pending.json).toMatchObject({
      total: 1,
      items: [{ subject: 'orders.in', state: 'pending', lastValue: 50 }],
    });
    expect(await secured.runtime.prisma.alertDelivery.count({ where: { alertId: { not: null } } })).toBe(0);

    const fired = await evaluateCluster(deps(), clusterId, new Date(t0 + 31_000));
    expect(fired).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    // Firing again changes nothing and delivers nothing more.
    expect(await evaluateCluster(deps(), clusterId, new Date(t0 + 40_000))).toMatchObject({ transitions: 0 });

    received.length = 0;
    // Queued at the evaluation's (simulated) time, so due then.
    expect(await deliverDue(deps(), new Date(t0 + 41_000))).toBe(1);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.headers[SIGNATURE_HEADER]).toBe(signatureOf(SECRET, request?.body ?? ''));
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      event: 'firing',
      alert: {
        rule: 'orders backlog',
        severity: 'critical',
        subject: 'orders.in',
        value: 50,
        labels: { team: 'orders' },
      },
    });

    const firing = await call('GET', '/alerts?view=firing&q=orders');
    expect(firing.json).toMatchObject({ total: 1, items: [{ state: 'firing', rule: 'orders backlog' }] });
    const alertId = (firing.json.items as { id: string }[])[0]?.id ?? '';
    const log = await call('GET', `/alerts/${alertId}/deliveries`);
    expect(log.json).toMatchObject({ items: [{ channelId, event: 'firing', attempt: 1, status: 'delivered' }] });

    expect(await call('POST', `/alerts/${alertId}/acknowledge`, {})).toMatchObject({
      status: 200,
      json: { acknowledgedBy: 'admin' },
    });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      await call('POST', `/alerts/${alertId}/silence`, { until, reason: 'draining by hand', dryRun: true }),
    ).toMatchObject({ status: 200, json: { silencedUntil: null, dryRun: true } });
    expect(await call('POST', `/alerts/${alertId}/silence`, { until, reason: 'draining by hand' })).toMatchObject({
      status: 200,
      json: { silencedUntil: until, silenceReason: 'draining by hand' },
    });

    await setDepth('orders.in', 3);
    expect(await evaluateCluster(deps(), clusterId, new Date(t0 + 50_000))).toMatchObject({
      transitions: 1,
      queuedDeliveries: 0,
    });
    expect(await call('GET', '/alerts?view=firing')).toMatchObject({ json: { total: 0 } });
    const history = await call('GET', '/alerts?view=history');
    expect(history.json).toMatchObject({ total: 1, items: [{ id: alertId, state: 'resolved' }] });
    expect(await deliverDue(deps(), new Date(t0 + 3_600_000))).toBe(0);
  });

  it('drops a pending alert whose condition stopped holding before its for-duration', async () => {
    const t0 = Date.now();
    await setDepth('orders.out', 20);
    await evaluateCluster(deps(), clusterId, new Date(t0));
    expect(await call('GET', '/alerts?view=open&q=orders.out')).toMatchObject({ json: { total: 1 } });
    await setDepth('orders.out', 0);
    await evaluateCluster(deps(), clusterId, new Date(t0 + 5_000));
    expect(await call('GET', '/alerts?view=all&q=orders.out')).toMatchObject({ json: { total: 0 } });
  });

  it('installs the built-in rules once per cluster, and node down fires after its for-duration', async () => {
    await installBuiltInRules(secured.runtime.db, clusterId, 'alerted');
    await installBuiltInRules(secured.runtime.db, clusterId, 'alerted');
    const builtIn = await call('GET', '/alerts/rules?q=(alerted)');
    expect((builtIn.json.items as { builtIn: string }[]).map((rule) => rule.builtIn).sort()).toEqual([
      'capability-lost',
      'consumer-stalled',
      'dlq-growing',
      'node-down',
      'split-brain',
    ]);
    const t0 = Date.now();
    await secured.runtime.prisma.clusterNode.update({
      where: { id: nodeId },
      data: { lastFailureAt: new Date(t0), lastError: 'connection refused' },
    });
    await evaluateCluster(deps(), clusterId, new Date(t0));
    await evaluateCluster(deps(), clusterId, new Date(t0 + 31_000));
    const down = await call('GET', '/alerts?view=firing&q=Node down');
    expect(down.json).toMatchObject({ total: 1, items: [{ state: 'firing', severity: 'critical', lastValue: 1 }] });
    await secured.runtime.prisma.clusterNode.update({ where: { id: nodeId }, data: { lastSuccessAt: new Date() } });
    await evaluateCluster(deps(), clusterId, new Date(t0 + 40_000));
    expect(await call('GET', '/alerts?view=firing&q=Node down')).toMatchObject({ json: { total: 0 } });
  });

  it('keeps a failing delivery for a later retry without holding evaluation', async () => {
    const dead = await call('POST', '/alerts/channels', {
      name: 'nobody-listens',
      config: { kind: 'webhook', url: 'http://127.0.0.1:9/nothing' },
    });
    await call('POST', '/alerts/rules', {
      name: 'billing backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      pattern: 'billing',
      channelIds: [dead.json.id],
    });
    expect(await evaluateCluster(deps(), clusterId)).toMatchObject({ queuedDeliveries: 1 });
    expect(await deliverDue(deps())).toBe(1);
    const row = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({
      where: { channelId: dead.json.id as string },
    });
    expect(row).toMatchObject({ status: 'pending', attempt: 1 });
    expect(row.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    expect(row.response).not.toBe('');
    // Not due yet: nothing is tried again now.
    expect(await deliverDue(deps())).toBe(0);
  });
});
