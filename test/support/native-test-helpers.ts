// Helpers for the native client's tests on real brokers: an endpoint for a harness node, plain Jolokia calls
// (test/support/jolokia.ts: deliberately not the management client, so these tests check the native side against
// the broker's own view), and polling.
import type { BrokerNode } from './artemis/index.ts';
import { brokerMbean as brokerMbeanOf, jolokia } from './jolokia.ts';
import { addressFromUrl, type NativeEndpoint } from '../../src/modules/platform/broker/native/native-endpoint.ts';
import { openAckConsumer } from '../../src/modules/platform/broker/native/ack-consumer.ts';

/** The native client's settling consumer, for tests that drive traffic (selector, credit, when to accept). */
export { openAckConsumer };

export function endpointOf(node: BrokerNode, overrides: Partial<NativeEndpoint> = {}): NativeEndpoint {
  const { host, port } = addressFromUrl(node.amqpUrl);
  return {
    nodeKey: `${node.name}@${port}`,
    clusterKey: 'test-cluster',
    host,
    port,
    username: node.user,
    password: node.password,
    ...overrides,
  };
}

const brokerMbean = (node: BrokerNode) => brokerMbeanOf(node.name);
const anycastQueueMbean = (node: BrokerNode, queue: string) =>
  `${brokerMbean(node)},component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;

export async function createAnycastQueue(node: BrokerNode, name: string): Promise<void> {
  await jolokia(node, {
    type: 'exec',
    mbean: brokerMbean(node),
    operation: 'createQueue(java.lang.String)',
    arguments: [
      JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST', durable: true, 'auto-create-address': true }),
    ],
  });
}

export async function destroyQueue(node: BrokerNode, name: string): Promise<void> {
  await jolokia(node, {
    type: 'exec',
    mbean: brokerMbean(node),
    operation: 'destroyQueue(java.lang.String,boolean)',
    arguments: [name, true],
  });
}

/** Sends durable text messages through the queue's own management operation (so a replica receives them too). */
export async function sendDurableMessages(node: BrokerNode, queue: string, count: number): Promise<void> {
  const mbean = anycastQueueMbean(node, queue);
  for (let index = 0; index < count; index++) {
    await jolokia(node, {
      type: 'exec',
      mbean,
      operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
      arguments: [{}, 3, `message ${index}`, true, node.user, node.password],
    });
  }
}

export async function messageCount(node: BrokerNode, queue: string): Promise<number> {
  const mbean = anycastQueueMbean(node, queue);
  return Number(await jolokia(node, { type: 'read', mbean, attribute: 'MessageCount' }));
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Attaches a consumer to the queue and closes it: a CONSUMER_CREATED and a CONSUMER_CLOSED notification there. */
export async function attachAndLeave(node: BrokerNode, queue: string, heldMs = 300): Promise<void> {
  const consumer = openAckConsumer(endpointOf(node), { source: queue, credit: 1, onMessage: () => undefined });
  await new Promise((resolve) => setTimeout(resolve, heldMs));
  await consumer.close();
}

/** Many consumers of one queue at once (a burst of notifications); close them with the answer. */
export function openConsumers(node: BrokerNode, queue: string, count: number): { close(): Promise<void> } {
  const consumers = Array.from({ length: count }, () =>
    openAckConsumer(endpointOf(node), { source: queue, credit: 1, onMessage: () => undefined }),
  );
  return {
    close: async () => {
      await Promise.all(consumers.map((consumer) => consumer.close()));
    },
  };
}

/**
 * Many durable text messages in bulk management POSTs of 500 (seconds for thousands), each with a unique `uid`
 * property (`<queue>#<node>#<index>`) and the string properties given; answers the uids in order.
 */
export async function sendManyMessages(
  node: BrokerNode,
  queue: string,
  count: number,
  properties: (index: number) => Record<string, string> = () => ({}),
): Promise<string[]> {
  const uids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const batch = [];
    for (let index = start; index < Math.min(count, start + 500); index++) {
      const uid = `${queue}#${node.name}#${String(index)}`;
      uids.push(uid);
      batch.push({
        type: 'exec',
        mbean: anycastQueueMbean(node, queue),
        operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
        arguments: [{ uid, ...properties(index) }, 3, `message ${String(index)}`, true, node.user, node.password],
      });
    }
    const response = await fetch(node.managementUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: new URL(node.managementUrl).origin,
        Authorization: `Basic ${Buffer.from(`${node.user}:${node.password}`).toString('base64')}`,
      },
      body: JSON.stringify(batch),
    });
    const replies = (await response.json()) as Array<{ status: number; error?: string }>;
    const failed = replies.find((reply) => reply.status !== 200);
    if (failed) throw new Error(`sending to ${queue}: ${failed.error ?? String(failed.status)}`);
  }
  return uids;
}
