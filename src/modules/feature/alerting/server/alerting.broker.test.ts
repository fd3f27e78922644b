// Alerting on a real two-node cluster with the worker's services running: a depth rule fires with real messages
// and resolves after a purge, each transition delivered once to a local HTTP listener with a valid HMAC signature;
// the built-in node-down rule, installed when the cluster was registered and edited here to fire at once, fires
// once when a node is killed and resolves when it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookListener, type HookListener } from '@test/hook-listener.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import { startCluster, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { createAnycastQueue, sendManyMessages, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { signatureOf, SIGNATURE_HEADER } from './channels.ts';

const SECRET = 'the-brokers-test-signing-secret';
let cluster: Topology;
let nodes: [BrokerNode, BrokerNode];
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;
let listener: HookListener;
let channelId: string;

interface Delivered {
  readonly event: string;
  readonly alert: { rule: string; subject: string; value: number | null; severity: string };
}
const delivered = (rule: string) =>
  listener.received
    .map((request) => JSON.parse(request.body) as Delivered)
    .filter((payload) => payload.alert.rule === rule)
    .map((payload) => `${payload.event} ${payload.alert.subject}`);

beforeAll(async () => {
  listener = await startHookListener('/alerts');
  cluster = await startCluster();
  nodes = cluster.nodes as [BrokerNode, BrokerNode];
  scenario = await startHaScenario('alerting', cluster, 1_000, { tierB: '1s', tierC: '1h' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'alerting-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
  // The test's listener is on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', web.settings);
  const channel = await call<{ id: string }>('POST', '/alerts/channels', {
    name: 'local-hook',
    config: { kind: 'webhook', url: listener.url, secret: SECRET },
  });
  expect(channel.status).toBe(200);
  channelId = channel.json.id;
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
  await listener.close();
});

describe('alerting on a real cluster', () => {
  it('fires a depth rule on real messages and resolves it after a purge, each delivered once and signed', async () => {
    const queue = uniqueName('alert.depth');
    for (const node of nodes) await createAnycastQueue(node, queue);
    const rule = await call<{ rule: { id: string } }>('POST', '/alerts/rules', {
      name: 'depth over 5',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 5 } },
      pattern: 'alert.depth.*',
      severity: 'warning',
      channelIds: [channelId],
    });
    expect(rule.status).toBe(200);

    await sendManyMessages(nodes[0], queue, 8);
    await waitFor('the firing delivery', () => (delivered('depth over 5').length > 0 ? true : undefined), 30_000);
    const firing = listener.received.find((request) => request.body.includes('"depth over 5"'));
    expect(firing?.headers[SIGNATURE_HEADER]).toBe(signatureOf(SECRET, firing?.body ?? ''));
    expect(JSON.parse(firing?.body ?? '{}')).toMatchObject({
      event: 'firing',
      alert: { rule: 'depth over 5', subject: queue, severity: 'warning', clusterId: scenario.clusterId },
    });
    // Eight were sent in one bulk request; a sweep may land between two of them, but only above the threshold.
    expect((JSON.parse(firing?.body ?? '{}') as Delivered).alert.value).toBeGreaterThan(5);
    const open = await call<{ items: { id: string; state: string }[] }>('GET', `/alerts?view=firing&q=${queue}`);
    expect(open.json.items).toMatchObject([{ state: 'firing' }]);

    const purged = await call<{ outcome: string }>(
      'POST',
      `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(queue)}/purge`,
      {},
    );
    expect(purged.status).toBe(200);
    await waitFor('the resolved delivery', () => (delivered('depth over 5').length > 1 ? true : undefined), 30_000);
    expect(delivered('depth over 5')).toEqual([`firing ${queue}`, `resolved ${queue}`]);
    const log = await call<{ items: { event: string; status: string; attempt: number }[] }>(
      'GET',
      `/alerts/${open.json.items[0]?.id ?? ''}/deliveries`,
    );
    expect(log.json.items).toMatchObject([
      { event: 'firing', status: 'delivered', attempt: 1 },
      { event: 'resolved', status: 'delivered', attempt: 1 },
    ]);
  });

  it('fires the built-in node-down rule once when a node is killed, and resolves it when the node is back', async () => {
    const rules = await call<{ items: { id: string; builtIn: string | null }[] }>('GET', '/alerts/rules');
    const nodeDown = rules.json.items.find((candidate) => candidate.builtIn === 'node-down');
    expect(
      rules.json.items
        .filter((candidate) => candidate.builtIn)
        .map((candidate) => candidate.builtIn)
        .sort(),
    ).toEqual(['capability-lost', 'consumer-stalled', 'dlq-growing', 'node-down', 'split-brain']);
    // Built-in rules are editable: fire at once, to this test's listener.
    const edited = await call('PATCH', `/alerts/rules/${nodeDown?.id ?? ''}`, {
      forSeconds: 0,
      channelIds: [channelId],
    });
    expect(edited.status).toBe(200);
    const name = (await web.prisma.alertRule.findUniqueOrThrow({ where: { id: nodeDown?.id ?? '' } })).name;

    await nodes[1].kill();
    await waitFor('node down delivered', () => (delivered(name).length > 0 ? true : undefined), 45_000);
    await nodes[1].start();
    await waitFor('node up delivered', () => (delivered(name).length > 1 ? true : undefined), 60_000);
    expect(delivered(name)).toEqual([`firing ${nodes[1].managementUrl}`, `resolved ${nodes[1].managementUrl}`]);
  }, 150_000);
});
