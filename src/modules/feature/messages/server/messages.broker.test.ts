// Browse and send on a real two-node cluster: a 1 MB body sent through Flotilla and browsed natively comes back
// byte-identical; a card number in a body and a property is masked unless the caller asks for clear (audited as
// VIEW_CLEAR); a filter goes over the management channel, which flags what the broker cut and says how to raise
// the limit; a dry-run send sends nothing and is audited as one; a send to a node without the native channel fails
// in the preview with the reason. On the pool's leased cluster: every queue is under the lease's prefix.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseCluster } from '@test/artemis/lease.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { createAnycastQueue, messageCount, sendManyMessages, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import { CORE_SETTINGS } from '@/modules/kernel/core/index.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

// A pooled cluster shared with other suites; scenario.stop() removes what this suite made under the prefix.
const cluster = leaseCluster();
let nodes: [BrokerNode, BrokerNode];
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;

interface MessageView {
  messageId: string;
  properties: Record<string, unknown>;
  propertyTypes: Record<string, string>;
  body: { kind: string; base64: string | null; sizeBytes: number; withheldReason: string | null };
  bodyTruncated: boolean;
  truncatedFields: string[];
  redactions: Array<{ location: string; dataClass: string; action: string }>;
}
interface BrowseAnswer {
  channel: string;
  channelReason: string | null;
  nodeId: string;
  hasMore: boolean;
  messages: MessageView[];
  raiseLimitSnippet: string | null;
}

const send = (body: object) =>
  call<{ result: { outcome: string; auditId: string }; echo: MessageView }>(
    'POST',
    `/clusters/${scenario.clusterId}/messages/send`,
    body,
  );
const browse = (query: string) => call<BrowseAnswer>('GET', `/clusters/${scenario.clusterId}/messages?${query}`);

async function queueOnBoth(name: string) {
  for (const node of nodes) await createAnycastQueue(node, name);
  await waitFor(
    `${name} in the grid`,
    async () => {
      const { status, json } = await call<{ nodesPresent: number }>(
        'GET',
        `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(name)}`,
      );
      return status === 200 && json.nodesPresent === 2 ? true : undefined;
    },
    30_000,
  );
}

const firstNodeId = () => scenario.nodes.find((node) => node.broker.name === nodes[0].name)?.id ?? '';

beforeAll(async () => {
  nodes = cluster.nodes as [BrokerNode, BrokerNode];
  scenario = await startHaScenario('messages', cluster, 1_000, { tierB: '1s', tierC: '1h' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'messages-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
  // A 1 MB body is more than the default request limit of 1 MiB once it is JSON.
  expect((await call('PUT', '/settings/http.max-body-bytes', { value: 4 * 1024 * 1024 })).status).toBe(200);
  await waitFor('the larger request limit in effect', () =>
    web.settings.integer(CORE_SETTINGS.maxBodyBytes) === 4 * 1024 * 1024 ? true : undefined,
  );
  await waitFor(
    'both nodes subscribed',
    async () => {
      const rows = await web.prisma.clusterNodeSubscription.findMany({ where: { clusterId: scenario.clusterId } });
      return rows.filter((row) => row.state === 'established').length === 2 ? true : undefined;
    },
    60_000,
  );
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
});

describe('browse and send on a real cluster', () => {
  it('sends a 1 MB body and browses it back natively, byte for byte', async () => {
    const queue = cluster.name(uniqueName('msg.big'));
    await queueOnBoth(queue);
    // Letters only: nothing in it looks like a card, a phone number or a token to the policy's detectors.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const text = [...randomBytes(1024 * 1024)].map((byte) => letters[byte % 26]).join('');
    const sent = await send({
      address: queue,
      routingType: 'ANYCAST',
      nodeId: firstNodeId(),
      body: { type: 'text', text },
      properties: { attempt: { type: 'int', value: 3 }, big: { type: 'long', value: '9007199254740993' } },
    });
    expect(sent.status).toBe(200);
    expect(sent.json.result.outcome).toBe('SUCCEEDED');

    const { status, json } = await browse(`queue=${queue}&nodeId=${firstNodeId()}`);
    expect(status).toBe(200);
    expect(json.channel).toBe('native');
    expect(json.messages).toHaveLength(1);
    const [message] = json.messages;
    expect(Buffer.from(message?.body.base64 ?? '', 'base64').equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(message?.propertyTypes).toMatchObject({ attempt: 'int', big: 'long' });
    expect(message?.properties).toMatchObject({ attempt: 3, big: '9007199254740993' });
  });

  it('browses 1,000 messages natively in one page, in queue order, and knows there are no more', async () => {
    const queue = cluster.name(uniqueName('msg.many'));
    await queueOnBoth(queue);
    const uids = await sendManyMessages(nodes[0], queue, 1_000);
    const { json } = await browse(`queue=${queue}&nodeId=${firstNodeId()}&pageSize=1000`);
    expect(json.channel).toBe('native');
    expect(json.messages.map((message) => message.properties.uid)).toEqual(uids);
    expect(json.hasMore).toBe(false);
  });

  it('masks a card number in the body and a property, and shows it in clear only on request (audited)', async () => {
    const queue = cluster.name(uniqueName('msg.card'));
    await queueOnBoth(queue);
    const card = '4111 1111 1111 1111';
    const sent = await send({
      address: queue,
      routingType: 'ANYCAST',
      nodeId: firstNodeId(),
      body: { type: 'json', json: { order: 7, payment: { card } } },
      properties: { cardNumber: { type: 'string', value: card } },
    });
    expect(sent.status).toBe(200);
    expect(JSON.stringify(sent.json.echo)).not.toContain(card);

    const masked = await browse(`queue=${queue}&nodeId=${firstNodeId()}`);
    const text = Buffer.from(masked.json.messages[0]?.body.base64 ?? '', 'base64').toString('utf8');
    expect(JSON.parse(text)).toMatchObject({ order: 7 });
    expect(text).not.toContain('4111');
    expect(JSON.stringify(masked.json.messages[0]?.properties)).not.toContain('4111 1111');
    expect(masked.json.messages[0]?.redactions.map((redaction) => redaction.dataClass)).toContain('payment-card');

    const clear = await browse(`queue=${queue}&nodeId=${firstNodeId()}&clear=true`);
    expect(clear.status).toBe(200);
    expect(Buffer.from(clear.json.messages[0]?.body.base64 ?? '', 'base64').toString('utf8')).toContain(card);
    const views = await web.prisma.auditEvent.findMany({
      where: { action: 'VIEW_CLEAR', target: `messages of ${queue}` },
    });
    expect(views).toHaveLength(1);
  });

  it('filters over the management channel, flagging what the broker cut and how to raise the limit', async () => {
    const queue = cluster.name(uniqueName('msg.filter'));
    await queueOnBoth(queue);
    for (const colour of ['red', 'blue', 'red']) {
      const sent = await send({
        address: queue,
        routingType: 'ANYCAST',
        nodeId: firstNodeId(),
        body: { type: 'text', text: `${colour} `.repeat(200) },
        properties: { colour: { type: 'string', value: colour } },
      });
      expect(sent.status).toBe(200);
    }
    const { status, json } = await browse(
      `queue=${queue}&nodeId=${firstNodeId()}&filter=${encodeURIComponent("colour = 'red'")}`,
    );
    expect(status).toBe(200);
    expect(json.channel).toBe('management');
    expect(json.channelReason).toContain('filter');
    expect(json.messages).toHaveLength(2);
    expect(json.messages.every((message) => message.properties.colour === 'red')).toBe(true);
    expect(json.messages.every((message) => message.bodyTruncated)).toBe(true);
    expect(json.raiseLimitSnippet).toContain('management-message-attribute-size-limit');
  });

  it('sends nothing on a dry run, and audits it as one', async () => {
    const queue = cluster.name(uniqueName('msg.dry'));
    await queueOnBoth(queue);
    const preview = await call<{ result: { outcome: string; auditId: string } }>(
      'POST',
      `/clusters/${scenario.clusterId}/messages/send?dryRun=true`,
      { address: queue, routingType: 'ANYCAST', nodeId: firstNodeId(), body: { type: 'text', text: 'hello' } },
    );
    expect(preview.status).toBe(200);
    expect(preview.json.result.outcome).toBe('WOULD_APPLY');
    expect(await messageCount(nodes[0], queue)).toBe(0);
    const row = await web.prisma.auditEvent.findUniqueOrThrow({ where: { id: preview.json.result.auditId } });
    expect(row).toMatchObject({ action: 'message.send', dryRun: true, target: queue });
    expect(JSON.stringify(row.parameters)).not.toContain('hello');
  });

  it('refuses a property whose value does not fit its type, sending nothing', async () => {
    const queue = cluster.name(uniqueName('msg.bad'));
    await queueOnBoth(queue);
    const refused = await send({
      address: queue,
      nodeId: firstNodeId(),
      body: { type: 'text', text: 'x' },
      properties: { attempt: { type: 'int', value: 'three' } },
    });
    expect(refused.status).toBe(400);
    expect(await messageCount(nodes[0], queue)).toBe(0);
  });
});
