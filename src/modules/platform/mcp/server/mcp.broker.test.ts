// The MCP endpoint against a real broker, through the official SDK client over HTTP with API tokens: every tool is
// called at least once; a purge with default arguments changes nothing; a real purge with a wrong confirm is -32602
// and changes nothing; with the queue's name it empties the queue and is audited with the token's name; a viewer's
// token cannot act; a card number in a body comes back masked; disabling a feature removes its tools.
// A pooled broker: every queue of this suite is under the lease's prefix.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { connectMcp, issueToken, type Listener, serveOverHttp, userWithToken } from '@test/mcp-client.ts';
import {
  attachAndLeave,
  createAnycastQueue,
  messageCount,
  sendManyMessages,
  uniqueName,
  waitFor,
} from '@test/native-test-helpers.ts';
import { signIn } from '@test/sign-in.ts';
import { createMcpHandler } from '@/server/http/mcp-route.ts';
import { createRestHandler } from '@/server/http/rest.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';

const CARD = '4111 1111 1111 1111';
const broker = leaseSingleNode();
let node: BrokerNode;
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let listener: Listener;
let agent: Client;
let viewer: Client;
let queue: string;

type Answer = { isError?: boolean; content: { type: string; text: string }[] };

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as Answer;
  const text = result.content[0]?.text ?? '';
  if (result.isError) return { isError: true, text, json: {} as Record<string, unknown> };
  return { isError: false, text, json: JSON.parse(text) as Record<string, unknown> };
}

async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<McpError> {
  try {
    await client.callTool({ name, arguments: args });
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error(`${name} was not refused`);
}

beforeAll(async () => {
  node = broker.nodes[0] as BrokerNode;
  scenario = await startHaScenario('mcp', broker, 1_000, { tierB: '1s', tierC: '1h' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'mcp-web' });
  ({ runtime: web } = secured);
  const { rest } = secured;
  listener = await serveOverHttp(createMcpHandler(() => Promise.resolve(web)));
  agent = await connectMcp(listener.url, await issueToken(rest, (await secured.signedIn()).auth, 'agent'));
  viewer = await connectMcp(
    listener.url,
    await userWithToken(web, rest, { username: 'vera', role: 'viewer', tokenName: 'vera-bot' }),
  );
  queue = broker.name(uniqueName('mcp.orders'));
  await createAnycastQueue(node, queue);
  await sendManyMessages(node, queue, 3);
  await waitFor(
    'the subscription and the queue in the grid',
    async () => {
      const subscribed = await web.prisma.clusterNodeSubscription.count({
        where: { clusterId: scenario.clusterId, state: 'established' },
      });
      const listed = await call(agent, 'list_resources', { clusterId: scenario.clusterId, kind: 'queues', q: queue });
      const items = (listed.json.items ?? []) as { queueName: string; messageCount: number }[];
      return subscribed === 1 && items.some((item) => item.queueName === queue && item.messageCount === 3)
        ? true
        : undefined;
    },
    60_000,
  );
}, 240_000);

afterAll(async () => {
  await agent.close();
  await viewer.close();
  await listener.close();
  await secured.close();
  await scenario.stop();
});

describe('MCP on a real broker', () => {
  it('reads the fleet, the cluster, its resources, health and history', async () => {
    const fleet = await call(agent, 'cluster_health', {});
    expect(fleet.json).toMatchObject({ total: 1, items: [{ id: scenario.clusterId, name: 'mcp', nodeCount: 1 }] });
    const health = await call(agent, 'cluster_health', { clusterId: scenario.clusterId });
    expect(health.json).toMatchObject({ id: scenario.clusterId, splitBrain: false, nodes: [{ serving: true }] });
    expect(health.json).toHaveProperty('queueVerdicts');

    // A consumer comes and goes on a queue of its own (it may take a message; the purge below counts this one's).
    const watched = broker.name(uniqueName('mcp.watched'));
    await createAnycastQueue(node, watched);
    await attachAndLeave(node, watched);
    const nodes = await call(agent, 'list_resources', { clusterId: scenario.clusterId, kind: 'nodes' });
    expect(nodes.json).toMatchObject({ kind: 'nodes', items: [{ serving: true }] });
    const addresses = await call(agent, 'list_resources', {
      clusterId: scenario.clusterId,
      kind: 'addresses',
      q: queue,
    });
    expect(addresses.json).toMatchObject({ kind: 'addresses', items: [{ name: queue }] });

    const diagnosis = await call(agent, 'diagnose_queue', { clusterId: scenario.clusterId, queue });
    expect(diagnosis.json).toMatchObject({ queueName: queue, evidence: { depth: 3 } });
    expect(typeof diagnosis.json.verdict).toBe('string');
    expect(typeof diagnosis.json.advice).toBe('string');
    const series = await call(agent, 'metric_series', { clusterId: scenario.clusterId, queue, lastSeconds: 600 });
    expect(series.json).toMatchObject({ queue });
    expect((series.json.nodes as unknown[]).length).toBe(1);

    const events = await waitFor('the consumer notifications', async () => {
      const answer = await call(agent, 'activity_log', { source: 'events', clusterId: scenario.clusterId, q: watched });
      const kinds = ((answer.json.items ?? []) as { kind: string }[]).map((item) => item.kind);
      return kinds.includes('CONSUMER_CLOSED') ? kinds : undefined;
    });
    expect(events).toContain('CONSUMER_CREATED');
    expect(await call(agent, 'activity_log', { source: 'alerts' })).toMatchObject({ isError: false });

    const topology = await agent.readResource({ uri: `cluster://${scenario.clusterId}/topology` });
    expect(JSON.parse((topology.contents[0] as { text: string }).text)).toMatchObject([{ serving: true }]);
    const capabilities = await agent.readResource({ uri: `cluster://${scenario.clusterId}/capabilities` });
    expect((capabilities.contents[0] as { text: string }).text).toContain('NOTIFICATIONS');
    expect((await call(agent, 'alert_rule', { op: 'list' })).json).toHaveProperty('items');
    expect((await call(agent, 'flotilla_setting', { op: 'get', key: 'safety.bulk-cap' })).json).toMatchObject({
      value: 1000,
    });
    expect((await call(agent, 'flotilla_help', {})).json).toHaveProperty('guide');
  });

  it('says where a message would go on each node without sending it', async () => {
    const routed = await call(agent, 'route_message', { clusterId: scenario.clusterId, address: queue });
    expect(routed.isError, routed.text).toBe(false);
    const nodes = routed.json.nodes as { outcome: string; queues: { name: string; via: string }[] }[];
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ outcome: 'routed', queues: [{ name: queue, via: 'address' }] });
    expect(await messageCount(node, queue)).toBe(3);
    const viewed = await call(viewer, 'route_message', { clusterId: scenario.clusterId, address: queue });
    expect(viewed.isError, viewed.text).toBe(false);
  });

  it('sends only when told to, and masks a card number in what comes back', async () => {
    const target = broker.name(uniqueName('mcp.cards'));
    await createAnycastQueue(node, target);
    const body = JSON.stringify({ order: 7, card: CARD });
    const preview = await call(agent, 'send_message', {
      clusterId: scenario.clusterId,
      address: target,
      body,
      json: true,
      properties: { note: `card ${CARD}` },
    });
    expect(preview.json).toMatchObject({ dryRun: true, outcome: 'WOULD_APPLY' });
    expect(await messageCount(node, target)).toBe(0);
    const sent = await call(agent, 'send_message', {
      clusterId: scenario.clusterId,
      address: target,
      body,
      json: true,
      properties: { note: `card ${CARD}` },
      dryRun: false,
    });
    expect(sent.json).toMatchObject({ dryRun: false, outcome: 'SUCCEEDED' });
    expect(sent.text).not.toContain(CARD);
    await waitFor('the message on the broker', async () =>
      (await messageCount(node, target)) === 1 ? true : undefined,
    );

    await waitFor('the queue in the grid', async () => {
      const listed = await call(agent, 'list_resources', { clusterId: scenario.clusterId, kind: 'queues', q: target });
      return ((listed.json.items ?? []) as { queueName: string }[]).some((item) => item.queueName === target)
        ? true
        : undefined;
    });
    const browsed = await call(agent, 'browse_messages', { clusterId: scenario.clusterId, queue: target });
    expect(browsed.isError, browsed.text).toBe(false);
    const messages = browsed.json.messages as { position: number; body: { preview: string } }[];
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0]?.body.preview ?? '{}')).toMatchObject({ order: 7 });
    expect(browsed.text).not.toContain(CARD);
    expect(browsed.text).not.toContain(CARD.replace(/ /g, ''));
    const whole = await call(agent, 'message_body', {
      clusterId: scenario.clusterId,
      queue: target,
      position: messages[0]?.position,
    });
    expect(whole.json).toMatchObject({ position: 0, body: { kind: 'json' } });
    expect(whole.text).toContain('•••• •••• •••• 1111'); // cards are masked partially: the last four stay
    expect(whole.text).not.toContain(CARD);
    expect(whole.text).not.toContain(CARD.replace(/ /g, ''));
  });

  it('purges only with both gates passed, and audits the real run with the token’s name', async () => {
    const cluster = { clusterId: scenario.clusterId, queue, action: 'purge' };
    const preview = await call(agent, 'queue_action', cluster);
    expect(preview.json).toMatchObject({ dryRun: true, outcome: 'WOULD_APPLY', affectedCount: 3 });
    expect(preview.json.next).toContain(`confirm="${queue}"`);
    expect(await messageCount(node, queue)).toBe(3);

    const wrong = await refusal(agent, 'queue_action', {
      ...cluster,
      dryRun: false,
      confirm: broker.name('mcp.orders'),
    });
    expect(wrong.code).toBe(ErrorCode.InvalidParams);
    const overrideOnly = await refusal(agent, 'queue_action', { ...cluster, dryRun: false, override: true });
    expect(overrideOnly.code).toBe(ErrorCode.InvalidParams);
    expect(await messageCount(node, queue)).toBe(3);

    const viewerTry = await call(viewer, 'queue_action', { ...cluster, dryRun: false, confirm: queue });
    expect(viewerTry.isError).toBe(true);
    expect(viewerTry.text).toContain('Permission missing: message:write');
    expect(await messageCount(node, queue)).toBe(3);

    const done = await call(agent, 'queue_action', { ...cluster, dryRun: false, confirm: queue });
    expect(done.json).toMatchObject({ dryRun: false, outcome: 'SUCCEEDED', appliedCount: 3 });
    expect(await messageCount(node, queue)).toBe(0);
    const row = await web.prisma.auditEvent.findUniqueOrThrow({ where: { id: String(done.json.auditId) } });
    expect(row).toMatchObject({ actor: 'admin [token: agent]', dryRun: false, outcome: 'SUCCEEDED' });
    const log = await call(agent, 'activity_log', { source: 'audit', clusterId: scenario.clusterId, q: queue });
    expect(log.json.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor: 'admin [token: agent]', dryRun: false })]),
    );
  });

  it('removes a disabled feature’s tools from the listing', async () => {
    const partial = await openWebRuntime({
      DATABASE_URL: scenario.databaseUrl,
      FLOTILLA_INSTANCE_ID: 'mcp-web-2',
      FLOTILLA_FEATURES_MESSAGES_ENABLED: 'false',
      FLOTILLA_FEATURES_METRICS_ENABLED: 'false',
      FLOTILLA_FEATURES_TRIAGE_ENABLED: 'false', // triage needs metrics
    });
    const served = await serveOverHttp(createMcpHandler(() => Promise.resolve(partial)));
    const rest = createRestHandler(() => Promise.resolve(partial));
    const client = await connectMcp(
      served.url,
      await issueToken(rest, await signIn(rest, 'http://127.0.0.1'), 'agent-2'),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const gone of ['browse_messages', 'message_body', 'send_message', 'diagnose_queue', 'metric_series'])
        expect(names).not.toContain(gone);
      expect(names).toContain('queue_action');
      const health = await call(client, 'cluster_health', { clusterId: scenario.clusterId });
      expect(health.json).not.toHaveProperty('queueVerdicts');
    } finally {
      await client.close();
      await served.close();
      await partial.close();
    }
  });
});
