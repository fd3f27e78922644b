// What a retried test (one retry for the browser suites, docs/adr/0017) finds on a real broker after its first attempt
// and undoes first, so that the retry starts as the first attempt did: a queue already there, messages left in it, a
// queue left paused. Plain Jolokia, like native-test-helpers.ts.
import type { BrokerNode } from './artemis/index.ts';
import { brokerMbean, jolokia } from './jolokia.ts';

const anycastQueueMbean = (node: BrokerNode, queue: string) =>
  `${brokerMbean(node.name)},component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;

/** An anycast queue on its own address, as createAnycastQueue makes it; nothing happens when it exists already. */
export async function ensureAnycastQueue(node: BrokerNode, name: string): Promise<void> {
  await jolokia(node, {
    type: 'exec',
    mbean: brokerMbean(node.name),
    operation: 'createQueue(java.lang.String,boolean)',
    arguments: [
      JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST', durable: true, 'auto-create-address': true }),
      true,
    ],
  });
}

/** Removes every message of an anycast queue (on its own address). */
export async function emptyQueue(node: BrokerNode, queue: string): Promise<void> {
  await jolokia(node, {
    type: 'exec',
    mbean: anycastQueueMbean(node, queue),
    operation: 'removeAllMessages()',
    arguments: [],
  });
}

/** Resumes an anycast queue (on its own address) left paused, also when the pause was kept across restarts. */
export async function resumeQueue(node: BrokerNode, queue: string): Promise<void> {
  const mbean = anycastQueueMbean(node, queue);
  if ((await jolokia(node, { type: 'read', mbean, attribute: 'Paused' })) === true)
    await jolokia(node, { type: 'exec', mbean, operation: 'resume()', arguments: [] });
}
