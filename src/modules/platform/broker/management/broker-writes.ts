// Every management operation that changes a broker, in one file. Only the clusters module's broker command
// sequence may import these (test/architecture/broker-writes.test.ts): it writes the audit row first, honours the
// dry run and the bulk cap, and fans out per node. Counts come from the whole queue (countMessages), never from a
// browse window. Message ids travel as text: Jolokia turns them into Java longs without losing digits.
import { ManagementError } from './management-error.ts';
import type { CallResult, ManagementClient } from './management-client.ts';
import { queueObjectName, type BrowseTarget } from './management-browse.ts';
import { listResourcePages } from './broker-operations.ts';
import { countQueueMessages, listMessageIds } from './queue-counts.ts';
import { reservedAddresses, reservedOriginFilter } from '../native/reserved-names.ts';
import { configWrites } from './config-writes.ts';

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

/** What a retry did: how many went back, and how many it held back for naming a reserved origin (they stay). */
interface RetryOutcome {
  readonly count: number;
  readonly leftOut: number;
}

/**
 * The filter of the messages a retry must leave where they are on this node (reservedOriginFilter): `reported`
 * are the cluster's management and notification addresses; the queues on them are read here, in one POST.
 */
async function reservedOriginsOn(client: ManagementClient, reported: readonly string[]): Promise<string> {
  const addresses = reservedAddresses(reported);
  const pages = await listResourcePages(
    client,
    'queues',
    addresses.map((value) => ({ filter: { field: 'address', operation: 'EQUALS', value }, page: 1, pageSize: 1_000 })),
  );
  const queues = pages
    .flatMap((page) => page.rows.map((row) => (typeof row.name === 'string' ? row.name : '')))
    .filter(Boolean);
  return reservedOriginFilter(reported, [...new Set(queues)]);
}

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

  /**
   * Every message back to its original address (the broker reads it from the message), but for those whose
   * original address or queue is one of the broker's own (`reserved`: the cluster's reported management and
   * notification addresses): they are never routed, and stay in the queue. retryMessages() takes a filter only
   * since ARTEMIS-5779 (after 2.44), so the others are listed by a filter and retried by id: a message that arrives
   * meanwhile is not retried, never misrouted.
   */
  retryAll: async (client: ManagementClient, ref: QueueRef, reserved: readonly string[]): Promise<RetryOutcome> => {
    const held = await reservedOriginsOn(client, reserved);
    const allowed = await listMessageIds(client, ref, `NOT (${held})`);
    const done = await perId(client, ref, allowed, 'retryMessage(long)', []);
    const [left] = await countQueueMessages(client, [{ ref, filter: held }]);
    return { count: done, leftOut: left?.count ?? 0 };
  },

  /** The ids given, less those whose original address or queue is reserved (read first; a message never changes). */
  retryByIds: async (
    client: ManagementClient,
    ref: QueueRef,
    ids: readonly string[],
    reserved: readonly string[],
  ): Promise<RetryOutcome> => {
    if (ids.length === 0) return { count: 0, leftOut: 0 };
    const held = new Set(await listMessageIds(client, ref, await reservedOriginsOn(client, reserved)));
    const allowed = ids.filter((id) => !held.has(id));
    return { count: await perId(client, ref, allowed, 'retryMessage(long)', []), leftOut: ids.length - allowed.length };
  },

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

  /** The brokerconfig module's writes (address and security settings, diverts, bridges, queues), one per call. */
  config: configWrites,
};

export type BrokerWrites = typeof brokerWrites;
