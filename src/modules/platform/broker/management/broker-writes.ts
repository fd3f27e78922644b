// Every management operation that changes a broker, in one file. Only the clusters module's broker command
// sequence may import these (test/architecture/broker-writes.test.ts): it writes the audit row first, honours the
// dry run and the bulk cap, and fans out per node. Counts come from the whole queue (countMessages), never from a
// browse window. Message ids travel as text: Jolokia turns them into Java longs without losing digits.
import { ManagementError } from './management-error.ts';
import type { CallResult, ManagementClient } from './management-client.ts';
import { queueObjectName, type BrowseTarget } from './management-browse.ts';

export type QueueRef = BrowseTarget;

/** How many messages each bulk remove or move commits at once on the broker. */
const FLUSH_LIMIT = 1_000;
/** Message ids per bulk POST when acting on ids one by one. */
const IDS_PER_CALL = 500;

function valueOf(result: CallResult | undefined, client: ManagementClient): unknown {
  if (!result) throw new ManagementError('broker-error', 'the broker returned no answer', client.nodeKey);
  if (!result.ok) throw result.error;
  return result.value;
}

async function queueExec(client: ManagementClient, ref: QueueRef, operation: string, args: unknown[]) {
  const mbean = queueObjectName(await client.brokerObjectName(), ref);
  return valueOf((await client.call([{ type: 'exec', mbean, operation, arguments: args }]))[0], client);
}

async function serverExec(client: ManagementClient, operation: string, args: unknown[]) {
  const mbean = await client.brokerObjectName();
  return valueOf((await client.call([{ type: 'exec', mbean, operation, arguments: args }]))[0], client);
}

/** One exec per id, IDS_PER_CALL to a POST; how many the broker said it acted on. */
async function perId(
  client: ManagementClient,
  ref: QueueRef,
  ids: readonly string[],
  operation: string,
  extra: unknown[],
) {
  const mbean = queueObjectName(await client.brokerObjectName(), ref);
  let done = 0;
  for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
    const chunk = ids.slice(start, start + IDS_PER_CALL);
    const results = await client.call(
      chunk.map((id) => ({ type: 'exec' as const, mbean, operation, arguments: [id, ...extra] })),
    );
    for (const result of results) if (valueOf(result, client) === true) done += 1;
  }
  return done;
}

const count = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0));

export const brokerWrites = {
  /** Every message of the queue removed; the number removed. */
  purge: async (client: ManagementClient, ref: QueueRef) =>
    count(await queueExec(client, ref, 'removeAllMessages()', [])),

  removeByFilter: async (client: ManagementClient, ref: QueueRef, filter: string) =>
    count(await queueExec(client, ref, 'removeMessages(int,java.lang.String)', [FLUSH_LIMIT, filter])),

  removeByIds: (client: ManagementClient, ref: QueueRef, ids: readonly string[]) =>
    perId(client, ref, ids, 'removeMessage(long)', []),

  moveByFilter: async (client: ManagementClient, ref: QueueRef, filter: string, targetQueue: string) =>
    count(
      await queueExec(client, ref, 'moveMessages(int,java.lang.String,java.lang.String,boolean)', [
        FLUSH_LIMIT,
        filter,
        targetQueue,
        false,
      ]),
    ),

  moveByIds: (client: ManagementClient, ref: QueueRef, ids: readonly string[], targetQueue: string) =>
    perId(client, ref, ids, 'moveMessage(long,java.lang.String)', [targetQueue]),

  /** Every message back to its original address (the broker reads it from the message). */
  retryAll: async (client: ManagementClient, ref: QueueRef) =>
    count(await queueExec(client, ref, 'retryMessages()', [])),

  retryByIds: (client: ManagementClient, ref: QueueRef, ids: readonly string[]) =>
    perId(client, ref, ids, 'retryMessage(long)', []),

  pause: async (client: ManagementClient, ref: QueueRef, persist: boolean) => {
    await queueExec(client, ref, 'pause(boolean)', [persist]);
  },

  resume: async (client: ManagementClient, ref: QueueRef) => {
    await queueExec(client, ref, 'resume()', []);
  },

  createQueue: async (
    client: ManagementClient,
    spec: {
      readonly name: string;
      readonly address: string;
      readonly routingType: 'ANYCAST' | 'MULTICAST';
      readonly filter?: string | undefined;
      readonly durable: boolean;
      readonly maxConsumers?: number | undefined;
    },
  ) => {
    const configuration = {
      name: spec.name,
      address: spec.address,
      'routing-type': spec.routingType,
      durable: spec.durable,
      'auto-create-address': true,
      ...(spec.filter ? { 'filter-string': spec.filter } : {}),
      ...(spec.maxConsumers !== undefined ? { 'max-consumers': spec.maxConsumers } : {}),
    };
    await serverExec(client, 'createQueue(java.lang.String,boolean)', [JSON.stringify(configuration), false]);
  },

  destroyQueue: async (client: ManagementClient, name: string) => {
    await serverExec(client, 'destroyQueue(java.lang.String,boolean,boolean)', [name, true, false]);
  },

  createAddress: async (client: ManagementClient, name: string, routingTypes: readonly string[]) => {
    await serverExec(client, 'createAddress(java.lang.String,java.lang.String)', [name, routingTypes.join(',')]);
  },

  deleteAddress: async (client: ManagementClient, name: string, force: boolean) => {
    await serverExec(client, 'deleteAddress(java.lang.String,boolean)', [name, force]);
  },

  /** True when the broker knew the connection and closed it. */
  closeConnection: async (client: ManagementClient, connectionId: string) =>
    (await serverExec(client, 'closeConnectionWithID(java.lang.String)', [connectionId])) === true,
};

export type BrokerWrites = typeof brokerWrites;
