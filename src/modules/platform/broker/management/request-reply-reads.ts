// The reads the request-reply correlator (feature/rr) needs from a node, each in at most two management POSTs:
// - the messages on an address's queues, queued or being delivered (a request gone = a consumer acknowledged it);
// - a temporary reply queue's counters while its request waits (no tap sees a reply to a temporary queue).
// Browse shows only undelivered messages, so the messages held by consumers are read beside it.
import { attributeText } from './broker-operations.ts';
import type { ManagementClient } from './management-client.ts';
import { queueObjectName } from './management-browse.ts';

export interface AddressMessages {
  /** Each queue's undelivered messages as browse renders them (up to the cap per queue). */
  readonly queued: ReadonlyArray<Record<string, unknown>>;
  /** The messages consumers hold (dispatched, not yet acknowledged), as the broker renders them. */
  readonly delivering: ReadonlyArray<Record<string, unknown>>;
  /** False when a queue held more than the cap, or a read failed: a message not listed may still be there. */
  readonly complete: boolean;
  /** How many queues the address has on this node. */
  readonly queues: number;
}

/** The message maps inside listDeliveringMessagesAsJSON's answer (one list per consumer). */
function deliveringMaps(node: unknown, into: Array<Record<string, unknown>>): void {
  if (Array.isArray(node)) {
    for (const item of node) deliveringMaps(item, into);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const map = node as Record<string, unknown>;
  if ('messageID' in map) into.push(map);
  else for (const value of Object.values(map)) deliveringMaps(value, into);
}

/**
 * Every message on each address's queues on this node: up to `cap` queued per queue, plus every delivering one. Two
 * POSTs however many addresses: one lists each address's queues, one reads them all.
 */
export async function readAddressMessages(
  client: ManagementClient,
  addresses: readonly string[],
  cap: number,
): Promise<Map<string, AddressMessages>> {
  const answers = new Map<string, AddressMessages>();
  if (addresses.length === 0) return answers;
  const mbean = await client.brokerObjectName();
  const listed = await client.call(
    addresses.map((address) => ({
      type: 'exec' as const,
      mbean,
      operation: 'listQueues(java.lang.String,int,int)',
      arguments: [JSON.stringify({ field: 'address', operation: 'EQUALS', value: address }), 1, 100],
    })),
  );
  const targets = addresses.flatMap((address, index) => {
    const result = listed[index];
    if (!result?.ok) throw result?.error ?? new Error('listQueues returned nothing');
    const rows = (JSON.parse(attributeText(result.value)) as { data?: Array<Record<string, unknown>> }).data ?? [];
    return rows.map((row) => ({
      address,
      queue: String(row.name),
      routingType:
        String(row.routingType).toUpperCase() === 'MULTICAST' ? ('MULTICAST' as const) : ('ANYCAST' as const),
    }));
  });
  for (const address of addresses) answers.set(address, { queued: [], delivering: [], complete: true, queues: 0 });
  if (targets.length === 0) return answers;
  const results = await client.call(
    targets.flatMap((target) => {
      const queueMbean = queueObjectName(mbean, target);
      return [
        {
          type: 'exec' as const,
          mbean: queueMbean,
          operation: 'browse(int,int,java.lang.String)',
          arguments: [1, cap, null],
        },
        { type: 'exec' as const, mbean: queueMbean, operation: 'listDeliveringMessagesAsJSON()', arguments: [] },
        { type: 'read' as const, mbean: queueMbean, attribute: 'MessageCount' },
      ];
    }),
  );
  targets.forEach((target, index) => {
    const [browsed, held, count] = results.slice(index * 3, index * 3 + 3);
    const queued: Array<Record<string, unknown>> = [];
    const delivering: Array<Record<string, unknown>> = [];
    let complete = true;
    if (browsed?.ok && Array.isArray(browsed.value)) queued.push(...(browsed.value as Array<Record<string, unknown>>));
    else complete = false;
    try {
      if (!held?.ok) throw new Error('not read');
      deliveringMaps(JSON.parse(attributeText(held.value)) as unknown, delivering);
    } catch {
      complete = false;
    }
    // More messages than the browse window: the rest were not read.
    if (!count?.ok || Number(count.value) > cap) complete = false;
    const sofar = answers.get(target.address) ?? { queued: [], delivering: [], complete: true, queues: 0 };
    answers.set(target.address, {
      queued: [...sofar.queued, ...queued],
      delivering: [...sofar.delivering, ...delivering],
      complete: sofar.complete && complete,
      queues: sofar.queues + 1,
    });
  });
  return answers;
}

export interface TemporaryQueueCounts {
  readonly messagesAdded: number;
  readonly consumerCount: number;
}

/** MessagesAdded and ConsumerCount of temporary queues (address = queue name); absent ones are left out. */
export async function readTemporaryQueueCounts(
  client: ManagementClient,
  names: readonly string[],
): Promise<Map<string, TemporaryQueueCounts>> {
  const counts = new Map<string, TemporaryQueueCounts>();
  if (names.length === 0) return counts;
  const mbean = await client.brokerObjectName();
  const results = await client.call(
    names.map((name) => ({
      type: 'read' as const,
      mbean: queueObjectName(mbean, { address: name, queue: name, routingType: 'ANYCAST' }),
      attribute: ['MessagesAdded', 'ConsumerCount'],
    })),
  );
  names.forEach((name, index) => {
    const result = results[index];
    if (!result?.ok || !result.value || typeof result.value !== 'object') return;
    const value = result.value as Record<string, unknown>;
    counts.set(name, {
      messagesAdded: Number(value.MessagesAdded ?? 0),
      consumerCount: Number(value.ConsumerCount ?? 0),
    });
  });
  return counts;
}
