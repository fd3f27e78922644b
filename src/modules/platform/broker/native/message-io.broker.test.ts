// Browse, send and the client-acknowledge consumer against a real broker, and bounded closing when the
// broker stops answering. Queue depth is checked through a plain Jolokia read, not through this client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { startFaultProxy, type FaultProxy } from '@test/artemis/fault-proxy.ts';
import { openAckConsumer } from './ack-consumer.ts';
import { browseQueue, BrowseWindowExceededError } from './browse.ts';
import type { NativeMessage } from './native-message.ts';
import { DEFAULT_NATIVE_OPTIONS } from './native-options.ts';
import { configureNativeOptions, nativeConnectionFor, openNativeConnectionCounts } from './native-pool.ts';
import { createAnycastQueue, endpointOf, messageCount, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { ensureNotificationSubscription } from './notification-subscription.ts';
import { sendMessage } from './send.ts';
import { shutdown } from './shutdown.ts';
import { subscriptionState } from './subscription-state.ts';
import type { TypedValue } from './typed-value.ts';

const CLOSE_TIMEOUT_MS = 500;
const NO_RIGHTS = { user: 'outsider', password: 'outsider-secret', role: 'outsiders' };
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
const TEXT = 'Grüße aus Zürich — 東京 🚢';
const JSON_BODY = { vin: 'WVW123', speed: 88.5, tags: ['ä', 'ß'], nested: { ok: true } };
const TYPED: Record<string, TypedValue> = {
  anInt: { type: 'int', value: -42 },
  aLong: { type: 'long', value: '9007199254740993' },
  aDouble: { type: 'double', value: 2.5 },
  aBoolean: { type: 'boolean', value: true },
  aString: { type: 'string', value: 'ünïcødé' },
  aTimestamp: { type: 'timestamp', value: 1_763_780_000_123 },
};

let topology: Topology;
let node: BrokerNode;
let proxy: FaultProxy | undefined;

const bodyBytes = (message: NativeMessage) => Buffer.from(message.body.base64, 'base64');

function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`expected an item at ${index} of ${list.length}`);
  return item;
}

beforeAll(async () => {
  configureNativeOptions({ ...DEFAULT_NATIVE_OPTIONS, closeTimeoutMs: CLOSE_TIMEOUT_MS, reconnectInitialDelayMs: 200 });
  topology = await startSingleNode({ name: 'io1', extraUsers: [NO_RIGHTS] });
  node = topology.nodes[0] as BrokerNode;
});

afterAll(async () => {
  await shutdown();
  await proxy?.close();
  await topology.stop();
});

describe('browse and send over AMQP', () => {
  const queue = uniqueName('io.browse');

  beforeAll(async () => {
    await createAnycastQueue(node, queue);
    const endpoint = endpointOf(node);
    await sendMessage(endpoint, {
      address: queue,
      routingType: 'anycast',
      body: { encoding: 'base64', base64: ALL_BYTES.toString('base64') },
      applicationProperties: TYPED,
      messageAnnotations: { 'x-opt-flotilla-origin': { type: 'string', value: 'test' } },
      messageId: 'm-binary',
      durable: true,
    });
    await sendMessage(endpoint, { address: queue, body: { encoding: 'text', text: TEXT }, messageId: 'm-text' });
    await sendMessage(endpoint, {
      address: queue,
      body: { encoding: 'json', json: JSON_BODY },
      messageId: 'm-json',
      correlationId: 'c-9',
      ttlMs: 3_600_000,
      absoluteExpiryTime: Date.now() + 3_600_000,
      durable: false,
    });
    await waitFor('three messages on the broker', async () =>
      (await messageCount(node, queue)) === 3 ? true : undefined,
    );
  });

  it('returns every message with real bodies and typed properties and leaves the queue as it was', async () => {
    const page = await browseQueue(endpointOf(node), { queue, offset: 0, limit: 10 });
    expect(page).toMatchObject({ channel: 'native', offset: 0, limit: 10, hasMore: false });
    expect(page.messages.map((message) => message.properties.messageId?.value)).toEqual([
      'm-binary',
      'm-text',
      'm-json',
    ]);
    const [binary, text, json] = [nth(page.messages, 0), nth(page.messages, 1), nth(page.messages, 2)];

    expect(bodyBytes(binary).equals(ALL_BYTES)).toBe(true);
    expect(binary.body.encoding).toBe('binary');
    expect(binary.applicationProperties).toEqual(TYPED);
    expect(binary.messageAnnotations['x-opt-flotilla-origin']).toEqual({ type: 'string', value: 'test' });
    expect(binary.header.durable).toBe(true);

    expect(bodyBytes(text).toString('utf8')).toBe(TEXT);
    expect(text.body.encoding).toBe('text');

    expect(JSON.parse(bodyBytes(json).toString('utf8'))).toEqual(JSON_BODY);
    expect(json.body.encoding).toBe('json');
    expect(page.messages.map((message) => message.channel)).toEqual(['native', 'native', 'native']);

    expect(await messageCount(node, queue)).toBe(3);
  });

  it('pages with offset and limit in queue order', async () => {
    const second = await browseQueue(endpointOf(node), { queue, offset: 1, limit: 1 });
    expect(second.messages.map((message) => [message.position, message.properties.messageId?.value])).toEqual([
      [1, 'm-text'],
    ]);
    expect(second.hasMore).toBe(true);
    const last = await browseQueue(endpointOf(node), { queue, offset: 2, limit: 5 });
    expect(last.messages.map((message) => message.properties.messageId?.value)).toEqual(['m-json']);
    expect(last.hasMore).toBe(false);
    await expect(browseQueue(endpointOf(node), { queue, offset: 5_000, limit: 10 })).rejects.toBeInstanceOf(
      BrowseWindowExceededError,
    );
    expect(await messageCount(node, queue)).toBe(3);
  });

  it('round-trips correlation id, expiry and the durable flag', async () => {
    const page = await browseQueue(endpointOf(node), { queue, offset: 2, limit: 1 });
    const json = nth(page.messages, 0);
    expect(json.properties.correlationId).toEqual({ type: 'string', value: 'c-9' });
    expect(json.properties.absoluteExpiryTime).toBeGreaterThan(Date.now());
    expect(json.header.ttl).toBe(3_600_000);
    expect(json.header.durable).toBe(false);
  });

  it('refuses a send the broker refuses, with its reason', async () => {
    const outsider = endpointOf(node, {
      nodeKey: 'outsider',
      clusterKey: 'outsiders',
      username: NO_RIGHTS.user,
      password: NO_RIGHTS.password,
    });
    await expect(sendMessage(outsider, { address: queue, body: { encoding: 'text', text: 'x' } })).rejects.toThrow(
      /send to io\.browse.*unauthorized-access/,
    );
    expect(await messageCount(node, queue)).toBe(3);
  });
});

describe('client-acknowledge consumer', () => {
  it('gets a released message again and removes it once accepted', async () => {
    const queue = uniqueName('io.ack');
    await createAnycastQueue(node, queue);
    await sendMessage(endpointOf(node), {
      address: queue,
      body: { encoding: 'text', text: 'once' },
      messageId: 'm-ack',
    });

    const deliveries: string[] = [];
    const consumer = openAckConsumer(endpointOf(node), {
      source: queue,
      credit: 1,
      onMessage: (message, settlement) => {
        deliveries.push(JSON.stringify(message.properties.messageId?.value));
        if (deliveries.length === 1) settlement.release();
        else settlement.accept();
      },
    });
    await waitFor('the redelivery', () => (deliveries.length >= 2 ? true : undefined));
    expect(deliveries.slice(0, 2)).toEqual(['"m-ack"', '"m-ack"']);
    await waitFor('the queue to drain', async () => ((await messageCount(node, queue)) === 0 ? true : undefined));
    await consumer.close();
  });
});

describe('closing', () => {
  it('counts open connections per cluster', async () => {
    await nativeConnectionFor(endpointOf(node)).whenOpen(10_000);
    expect(openNativeConnectionCounts()['test-cluster']).toBe(1);
  });

  it('finishes within its bound when the broker stops answering mid-connection', async () => {
    proxy = await startFaultProxy(node.amqpPort);
    const endpoint = endpointOf(node, { nodeKey: 'behind-proxy', clusterKey: 'proxied', port: proxy.port });
    ensureNotificationSubscription(endpoint, () => undefined);
    const consumer = openAckConsumer(endpoint, {
      source: uniqueName('io.frozen'),
      credit: 5,
      onMessage: () => undefined,
    });
    await waitFor('the subscription through the proxy', () => subscriptionState('behind-proxy') === 'established');
    expect(consumer).toBeDefined();

    proxy.setMode({ kind: 'blackhole' });
    const started = Date.now();
    await shutdown();
    const elapsed = Date.now() - started;
    // Links, then session, then connection, each waiting at most the close timeout; plus slack.
    expect(elapsed).toBeLessThan(CLOSE_TIMEOUT_MS * 4 + 1_000);
    expect(openNativeConnectionCounts()).toEqual({});
  });

  it('finishes within its bound after the broker was stopped under an open connection', async () => {
    const connection = nativeConnectionFor(endpointOf(node, { nodeKey: 'stopped' }));
    await connection.whenOpen(10_000);
    await node.stop();
    const started = Date.now();
    await shutdown();
    expect(Date.now() - started).toBeLessThan(CLOSE_TIMEOUT_MS * 4 + 1_000);
    expect(connection.status).toBe('closed');
  });
});
