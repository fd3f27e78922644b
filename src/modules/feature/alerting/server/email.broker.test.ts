// Alert email on a real broker with the worker's services running: a depth rule fires on real messages and resolves
// after a purge, each transition arriving once as an email at a real SMTP server on 127.0.0.1 (the npm package
// smtp-server, requiring the channel's password), naming the rule, the queue, its depth and the cluster; both
// transitions are on the alert_transition log the `alerts` stream topic carries. A silenced alert resolves without
// a word. A pooled broker: every queue and rule pattern of this suite is under the lease's prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { createAnycastQueue, sendManyMessages, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import { startSmtpSink } from '@test/smtp-sink.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

const PASSWORD = 'the-brokers-test-smtp-password';
const broker = leaseSingleNode();
let node: BrokerNode;
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let channelId: string;

beforeAll(async () => {
  sink = await startSmtpSink({ user: 'flotilla', password: PASSWORD });
  node = broker.nodes[0] as BrokerNode;
  scenario = await startHaScenario('email-alerts', broker, 1_000, { tierB: '1s', tierC: '1h' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'email-alerts-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
  // The test's listener is on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', web.settings);
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
  await sink.close();
});

describe('alert email on a real broker', () => {
  it('mails a depth rule firing on real messages and resolving after a purge, once each', async () => {
    const channel = await call<{ id: string }>('POST', '/alerts/channels', {
      name: 'oncall-mail',
      config: {
        kind: 'email',
        host: '127.0.0.1',
        port: sink.port,
        tls: 'none',
        user: 'flotilla',
        password: PASSWORD,
        from: 'flotilla@example.test',
        to: ['oncall@example.test'],
      },
    });
    expect(channel.status).toBe(200);
    channelId = channel.json.id;
    const queue = broker.name(uniqueName('mail.depth'));
    await createAnycastQueue(node, queue);
    const rule = await call('POST', '/alerts/rules', {
      name: 'Mail depth over 5',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 5 } },
      pattern: broker.name('mail.depth.*'),
      severity: 'warning',
      channelIds: [channel.json.id],
    });
    expect(rule.status).toBe(200);

    await sendManyMessages(node, queue, 8);
    await waitFor('the firing email', () => (sink.mails.length > 0 ? true : undefined), 30_000);
    const [firing] = sink.mails;
    expect(firing?.to).toEqual(['oncall@example.test']);
    expect(firing?.subject).toMatch(
      new RegExp(
        `^\\[WARNING\\] Firing: Mail depth over 5 — ${queue.replace(/\./g, '\\.')} on email-alerts \\(value \\d+\\)$`,
      ),
    );
    expect(firing?.text).toContain(`Cluster: email-alerts (${scenario.clusterId})\n`);
    expect(firing?.text).toContain(`Subject: ${queue}\n`);
    // Eight were sent in one bulk request; a sweep may land between two of them, but only above the threshold.
    expect(Number(/^Value: (\d+)$/m.exec(firing?.text ?? '')?.[1])).toBeGreaterThan(5);

    const purged = await call('POST', `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(queue)}/purge`, {});
    expect(purged.status).toBe(200);
    await waitFor('the resolved email', () => (sink.mails.length > 1 ? true : undefined), 30_000);
    expect(sink.mails.map((mail) => mail.subject.split(':')[0])).toEqual(['[WARNING] Firing', '[WARNING] Resolved']);
    expect(sink.mails[1]?.text).toContain('State: resolved\n');

    const alert = await web.prisma.alert.findFirstOrThrow({ where: { subject: queue } });
    expect(
      (await web.prisma.alertTransition.findMany({ where: { alertId: alert.id }, orderBy: { seq: 'asc' } })).map(
        (row) => [row.transition, row.actor],
      ),
    ).toEqual([
      ['firing', 'system'],
      ['resolved', 'system'],
    ]);
    const log = await call<{ items: { event: string; status: string; attempt: number; response: string }[] }>(
      'GET',
      `/alerts/${alert.id}/deliveries`,
    );
    expect(log.json.items).toMatchObject([
      { event: 'firing', status: 'delivered', attempt: 1 },
      { event: 'resolved', status: 'delivered', attempt: 1 },
    ]);
    expect(log.json.items.every((item) => item.response.startsWith('250 '))).toBe(true);
  }, 120_000);

  it('says nothing when a silenced alert resolves', async () => {
    const queue = broker.name(uniqueName('quiet.depth'));
    await createAnycastQueue(node, queue);
    expect(
      (
        await call('POST', '/alerts/rules', {
          name: 'Quiet depth over 5',
          condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 5 } },
          pattern: broker.name('quiet.depth.*'),
          channelIds: [channelId],
        })
      ).status,
    ).toBe(200);
    const quiet = () => sink.mails.filter((mail) => mail.subject.includes('Quiet depth over 5'));
    await sendManyMessages(node, queue, 8);
    await waitFor('the firing email', () => (quiet().length > 0 ? true : undefined), 30_000);
    const alert = await web.prisma.alert.findFirstOrThrow({ where: { subject: queue } });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect((await call('POST', `/alerts/${alert.id}/silence`, { until, reason: 'draining it' })).status).toBe(200);

    await call('POST', `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(queue)}/purge`, {});
    await waitFor(
      'the alert resolved',
      async () =>
        (await web.prisma.alert.findUniqueOrThrow({ where: { id: alert.id } })).state === 'resolved' ? true : undefined,
      30_000,
    );
    // The deliverer runs every second: three seconds later there is still only the firing email, and no row queued.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(quiet().map((mail) => mail.subject.split(':')[0])).toEqual(['[WARNING] Firing']);
    expect(await web.prisma.alertDelivery.count({ where: { alertId: alert.id } })).toBe(1);
    expect(
      (await web.prisma.alertTransition.findMany({ where: { alertId: alert.id }, orderBy: { seq: 'asc' } })).map(
        (row) => row.transition,
      ),
    ).toEqual(['firing', 'silenced', 'resolved']);
  }, 120_000);
});
