// Content that leaves through every exit but the message body, on a real broker (issue 25 item 5): a queue and its
// address named after a card number, a consumer whose filter holds one, and a message whose id, headers, property
// names and a binary property hold a card number and IBANs in upper and lower case. Seen as a viewer or an operator
// (masked) through the REST lists (resources and the queue grid), the address detail, the events API, the stream
// and MCP; as an admin holding message:clear who asks, in clear on REST with VIEW_CLEAR in the audit, and still
// masked where there is no clear view (the stream, MCP). A pooled broker: the queue is under the lease's prefix, and
// the lists are searched by its unique suffix, which no other suite's name holds.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { sendOwnAmqpMessage } from '@test/amqp-annotated.ts';
import { readEventsStream } from '@test/events-stream.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { connectMcp, issueToken, type Listener, serveOverHttp, userWithToken } from '@test/mcp-client.ts';
import { createAnycastQueue, endpointOf, openAckConsumer, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { createMcpHandler } from '@/server/http/mcp-route.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

const BASE = 'http://127.0.0.1/api/v1';
const CARD = '4111111111111111';
const IBAN_LOWER = 'de89370400440532013000';
const IBAN_UPPER = 'GB29NWBK60161331926819';
/** Anything of the three, in any case, anywhere in an answer. */
const IN_CLEAR = new RegExp(`${CARD}|${IBAN_LOWER}|${IBAN_UPPER}`, 'i');

const broker = leaseSingleNode();
/** The queue's name as a viewer sees it, up to its unique suffix: the lease's prefix, the card masked. */
const MASKED = broker.name('pay.••••••••••••1111');
let node: BrokerNode;
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let listener: Listener;
let admin: Record<string, string>;
let viewer: Record<string, string>;
let operator: Record<string, string>;
let adminMcp: Client;
let viewerMcp: Client;
let queue: string;
const closers: Array<() => Promise<void>> = [];

async function get(as: Record<string, string>, path: string): Promise<{ status: number; text: string; json: unknown }> {
  const response = await rest(new Request(`${BASE}${path}`, { headers: as }));
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : {} };
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> };
  return result.content[0]?.text ?? '';
}

/** A message of our own over AMQP: ids and headers a sender chooses, a property named after a card, a binary one. */
async function sendOwnMessage(): Promise<void> {
  const endpoint = { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };
  await sendOwnAmqpMessage(endpoint, queue, {
    message_id: `order-${CARD}`,
    correlation_id: IBAN_LOWER,
    to: `payouts.${IBAN_UPPER}`,
    reply_to: `replies.${IBAN_LOWER}`,
    group_id: IBAN_LOWER.toUpperCase(),
    application_properties: {
      [`card-${CARD}`]: 'yes',
      blob: Buffer.from(`pan ${CARD}`),
      iban: IBAN_LOWER,
    },
    body: 'nothing sensitive in the body',
  });
}

/** The events topic of the stream replayed after `afterSeq`, until `count` events came. */
const streamed = (afterSeq: number, count: number) =>
  readEventsStream(
    web,
    scenario.clusterId,
    { 'last-event-id': String(afterSeq) },
    (text) => text.split('event: events').length - 1 >= count,
  );

interface EventPage {
  items: Array<{ seq: number; kind: string; queue: string | null; properties: Record<string, { value: unknown }> }>;
}

const consumerEvents = (as: Record<string, string>, clear = false) =>
  get(
    as,
    `/clusters/${scenario.clusterId}/events?queue=${encodeURIComponent(queue)}&kind=CONSUMER_CREATED&sort=seq${clear ? '&clear=true' : ''}`,
  );

const viewClearCount = () => web.prisma.auditEvent.count({ where: { action: 'VIEW_CLEAR' } });

beforeAll(async () => {
  node = broker.nodes[0] as BrokerNode;
  scenario = await startHaScenario('content', broker, 1_000, { tierB: '1s', tierC: '1h' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'content-web' });
  ({ runtime: web, rest } = secured);
  listener = await serveOverHttp(createMcpHandler(() => Promise.resolve(web)));
  const adminToken = await issueToken(rest, (await secured.signedIn()).auth, 'admin-bot');
  const viewerToken = await userWithToken(web, rest, { username: 'vera', role: 'viewer', tokenName: 'vera-bot' });
  const operatorToken = await userWithToken(web, rest, { username: 'otto', role: 'operator', tokenName: 'otto-bot' });
  admin = { authorization: `Bearer ${adminToken}` };
  viewer = { authorization: `Bearer ${viewerToken}` };
  operator = { authorization: `Bearer ${operatorToken}` };
  adminMcp = await connectMcp(listener.url, adminToken);
  viewerMcp = await connectMcp(listener.url, viewerToken);

  // The queue's address is named after a card number; a consumer filters on one.
  queue = broker.name(uniqueName(`pay.${CARD}`));
  await createAnycastQueue(node, queue);
  await waitFor(
    'the subscription established',
    async () =>
      (await web.prisma.clusterNodeSubscription.count({
        where: { clusterId: scenario.clusterId, state: 'established' },
      })) === 1 || undefined,
    60_000,
  );
  const consumer = openAckConsumer(endpointOf(node), {
    source: queue,
    selector: `pan = '${CARD}'`,
    credit: 1,
    onMessage: () => undefined,
  });
  closers.push(() => consumer.close());
  await sendOwnMessage();
  await waitFor('the consumer created event', async () => {
    const page = (await consumerEvents(admin)).json as EventPage;
    return page.items.length > 0 || undefined;
  });
}, 240_000);

afterAll(async () => {
  for (const close of closers) await close();
  await adminMcp.close();
  await viewerMcp.close();
  await listener.close();
  await secured.close();
  await scenario.stop();
});

describe('content in names, filters, ids and headers, through every exit', () => {
  it('masks the consumer filter and the names in the REST lists and the address detail for a viewer', async () => {
    const suffix = queue.slice(queue.lastIndexOf('.') + 1);
    const consumers = await get(viewer, `/clusters/${scenario.clusterId}/consumers?q=${suffix}`);
    expect(consumers.status).toBe(200);
    const rows = (consumers.json as { items: Array<{ filter: string; queue: string; key: string }> }).items;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.filter).toBe("pan = '••••••••••••1111'");
    expect(rows[0]?.queue).toBe(`${MASKED}.${suffix}`);
    expect(consumers.text).not.toMatch(IN_CLEAR);

    const addresses = await get(viewer, `/clusters/${scenario.clusterId}/addresses?q=${suffix}`);
    expect((addresses.json as { items: unknown[] }).items).toHaveLength(1);
    expect(addresses.text).toContain(`${MASKED}.${suffix}`);
    expect(addresses.text).not.toMatch(IN_CLEAR);

    const detail = await get(viewer, `/clusters/${scenario.clusterId}/addresses/${encodeURIComponent(queue)}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(`${MASKED}.${suffix}`);
    expect(detail.text).not.toMatch(IN_CLEAR);

    const queues = await waitFor('the queue in the grid', async () => {
      const answer = await get(viewer, `/clusters/${scenario.clusterId}/queues?q=${suffix}`);
      return (answer.json as { items: unknown[] }).items.length === 1 ? answer : undefined;
    });
    expect(queues.text).toContain(`${MASKED}.${suffix}`);
    expect(queues.text).not.toMatch(IN_CLEAR);

    // Asking for clear without message:clear is refused.
    expect((await get(viewer, `/clusters/${scenario.clusterId}/consumers?q=${suffix}&clear=true`)).status).toBe(403);
  });

  it('shows the lists in clear to a holder of message:clear who asks, and audits it', async () => {
    const suffix = queue.slice(queue.lastIndexOf('.') + 1);
    const before = await viewClearCount();
    const consumers = await get(admin, `/clusters/${scenario.clusterId}/consumers?q=${suffix}&clear=true`);
    const rows = (consumers.json as { items: Array<{ filter: string; queue: string }> }).items;
    expect(rows[0]).toMatchObject({ filter: `pan = '${CARD}'`, queue });
    expect(await viewClearCount()).toBe(before + 1);
    const queues = await get(admin, `/clusters/${scenario.clusterId}/queues?q=${suffix}&clear=true`);
    expect((queues.json as { items: Array<{ queueName: string }> }).items[0]?.queueName).toBe(queue);
    expect(await viewClearCount()).toBe(before + 2);
    // Without asking, the admin sees the masked list too, and nothing is audited.
    expect((await get(admin, `/clusters/${scenario.clusterId}/consumers?q=${suffix}`)).text).not.toMatch(IN_CLEAR);
    expect(await viewClearCount()).toBe(before + 2);
  });

  it('masks the event’s queue, address and filter on the events API and the stream; clear on the API only', async () => {
    const masked = await consumerEvents(viewer);
    const events = (masked.json as EventPage).items;
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]?.queue).toBe(MASKED + queue.slice(queue.lastIndexOf('.')));
    expect(masked.text).not.toMatch(IN_CLEAR);

    const onStream = await streamed((events[0]?.seq ?? 1) - 1, 1);
    expect(onStream).toContain('event: events');
    expect(onStream).toContain('••••••••••••1111');
    expect(onStream).not.toMatch(IN_CLEAR);

    const before = await viewClearCount();
    const clear = await consumerEvents(admin, true);
    expect(clear.status).toBe(200);
    expect((clear.json as EventPage).items[0]?.queue).toBe(queue);
    expect(clear.text).toContain(`pan = '${CARD}'`);
    expect(await viewClearCount()).toBe(before + 1);
  });

  it('masks the message id, headers, property names and a binary property for an operator; clear when asked', async () => {
    const path = `/clusters/${scenario.clusterId}/messages?queue=${encodeURIComponent(queue)}`;
    const masked = await get(operator, path);
    expect(masked.status).toBe(200);
    const message = (
      masked.json as {
        messages: Array<{
          messageId: string;
          headers: Record<string, unknown>;
          properties: Record<string, unknown>;
          propertyTypes: Record<string, string>;
        }>;
      }
    ).messages[0];
    expect(message?.messageId).toBe('order-••••••••••••1111');
    expect(message?.headers).toMatchObject({ correlationId: '••••••••••••••••••3000' });
    expect(message?.propertyTypes).toMatchObject({ 'card-••••••••••••1111': 'string', blob: 'binary' });
    expect(Buffer.from(String(message?.properties.blob), 'base64').toString('utf8')).toBe('pan ••••••••••••1111');
    expect(masked.text).not.toMatch(IN_CLEAR);
    // Base64 of the binary property in clear would read as neither: it must not be there either.
    expect(masked.text).not.toContain(Buffer.from(`pan ${CARD}`).toString('base64'));

    // The management channel (a filter is the broker's to evaluate) renders the same message its own way.
    const filtered = await get(operator, `${path}&filter=${encodeURIComponent('iban IS NOT NULL')}`);
    expect(filtered.status).toBe(200);
    expect((filtered.json as { channel: string; messages: unknown[] }).channel).toBe('management');
    expect((filtered.json as { messages: unknown[] }).messages).toHaveLength(1);
    expect(filtered.text).not.toMatch(IN_CLEAR);
    expect(filtered.text).not.toContain(Buffer.from(`pan ${CARD}`).toString('base64'));

    expect((await get(operator, `${path}&clear=true`)).status).toBe(403);
    const before = await viewClearCount();
    const clear = await get(admin, `${path}&clear=true`);
    expect(clear.text).toContain(`order-${CARD}`);
    expect(clear.text).toContain(IBAN_LOWER);
    expect(clear.text).toContain(Buffer.from(`pan ${CARD}`).toString('base64'));
    expect(await viewClearCount()).toBe(before + 1);
  });

  it('masks all of it on MCP, for a viewer and for an admin alike (an agent has no clear view)', async () => {
    const suffix = queue.slice(queue.lastIndexOf('.') + 1);
    await waitFor('the queue in the grid', async () => {
      const listed = await tool(adminMcp, 'list_resources', {
        clusterId: scenario.clusterId,
        kind: 'queues',
        q: suffix,
      });
      return listed.includes(suffix) || undefined;
    });
    for (const client of [viewerMcp, adminMcp]) {
      for (const kind of ['consumers', 'addresses', 'queues']) {
        const listed = await tool(client, 'list_resources', { clusterId: scenario.clusterId, kind, q: suffix });
        expect(listed).toContain('••••••••••••1111');
        expect(listed).not.toMatch(IN_CLEAR);
      }
    }
    const browsed = await tool(adminMcp, 'browse_messages', { clusterId: scenario.clusterId, queue });
    expect(browsed).toContain('order-••••••••••••1111');
    expect(browsed).not.toMatch(IN_CLEAR);
    const topology = await adminMcp.readResource({ uri: `cluster://${scenario.clusterId}/topology` });
    expect(JSON.stringify(topology)).not.toMatch(IN_CLEAR);
  });
});
