// Helpers for the native client's tests on real brokers: an endpoint for a harness node, plain Jolokia
// calls through fetch (deliberately not the management client, so these tests check the native side
// against the broker's own view), and polling.
import type { BrokerNode } from '../../../../../test/support/artemis/index.ts';
import { addressFromUrl, type NativeEndpoint } from './native-endpoint.ts';

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

interface JolokiaReply {
  readonly status: number;
  readonly value?: unknown;
  readonly error?: string;
}

async function jolokia(node: BrokerNode, request: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(node.managementUrl, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: new URL(node.managementUrl).origin,
      Authorization: `Basic ${Buffer.from(`${node.user}:${node.password}`).toString('base64')}`,
    },
    body: JSON.stringify(request),
  });
  const reply = (await response.json()) as JolokiaReply;
  if (reply.status !== 200) throw new Error(`Jolokia ${String(request.type)} failed: ${reply.error ?? reply.status}`);
  return reply.value;
}

const brokerMbean = (node: BrokerNode) => `org.apache.activemq.artemis:broker="${node.name}"`;
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
