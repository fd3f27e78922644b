// The five live-through lists: what each asks of the broker (a consumer list also reads the sessions, to know each
// consumer's connection, in the same call), how its rows are built, searched, sorted and filtered.
import type { ListPage, LiveListKind } from '@/modules/platform/broker/index.ts';
import type { NodeTag } from './live-nodes.ts';
import { remoteAddressMatches, type ListSpec } from './resource-list.ts';
import {
  addressRow,
  connectionRow,
  consumerRow,
  producerRow,
  sessionIndex,
  sessionRow,
  type AddressRow,
  type ConnectionRow,
  type ConsumerRow,
  type ProducerRow,
  type SessionRow,
} from './resource-rows.ts';

export interface NodePages {
  readonly node: NodeTag;
  readonly pages: Partial<Record<LiveListKind, ListPage>>;
}

interface BuildContext {
  readonly now: number;
  readonly slowAfterMs: number;
}

interface KindDefinition<Row extends { key: string }, Filter extends string> {
  /** What one read asks each node for, in one call; the first is the kind listed. */
  readonly reads: readonly [LiveListKind, ...LiveListKind[]];
  readonly build: (nodes: readonly NodePages[], context: BuildContext) => Row[];
  readonly list: ListSpec<Row, Filter>;
  /** The fields that may carry content (names, filters, client ids, users): governed on the way out. */
  readonly content: ReadonlyArray<keyof Row & string>;
}

const rowsOf = (node: NodePages, kind: LiveListKind) => node.pages[kind]?.rows ?? [];
const sessionsOf = (nodes: readonly NodePages[]) =>
  sessionIndex(nodes.map((node) => ({ node: node.node, rows: rowsOf(node, 'sessions') })));
const byNode = (row: { nodeId: string }, value: string) => row.nodeId === value;
const same = (actual: string | null, value: string) => actual === value;

export const CONSUMER_FILTERS = ['queue', 'address', 'connection', 'session', 'remoteAddress', 'node', 'slow'] as const;
type ConsumerFilter = (typeof CONSUMER_FILTERS)[number];

const consumers: KindDefinition<ConsumerRow, ConsumerFilter> = {
  reads: ['consumers', 'sessions'],
  build: (nodes, context) => {
    const sessions = sessionsOf(nodes);
    return nodes.flatMap((node) =>
      rowsOf(node, 'consumers').map((row) => consumerRow(node.node, row, sessions, context.now, context.slowAfterMs)),
    );
  },
  content: ['key', 'queue', 'address', 'filter', 'clientId', 'user'],
  list: {
    searchText: (row) =>
      [row.queue, row.address, row.clientId, row.user, row.remoteAddress, row.id, row.sessionId, row.nodeName].join(
        ' ',
      ),
    sortValues: {
      queue: (row) => row.queue,
      address: (row) => row.address,
      node: (row) => row.nodeName,
      remoteAddress: (row) => row.remoteAddress,
      clientId: (row) => row.clientId,
      user: (row) => row.user,
      delivering: (row) => row.delivering,
      delivered: (row) => row.delivered,
      acknowledged: (row) => row.acknowledged,
      createdAt: (row) => row.createdAt,
      lastAcknowledgedAt: (row) => row.lastAcknowledgedAt,
    },
    filters: {
      queue: (row, value) => row.queue === value,
      address: (row, value) => row.address === value,
      connection: (row, value) => same(row.connectionId, value),
      session: (row, value) => row.sessionId === value,
      remoteAddress: (row, value) => remoteAddressMatches(row.remoteAddress, value),
      node: byNode,
      slow: (row, value) => String(row.slow) === value,
    },
  },
};

export const PRODUCER_FILTERS = ['address', 'connection', 'session', 'remoteAddress', 'node'] as const;
type ProducerFilter = (typeof PRODUCER_FILTERS)[number];

const producers: KindDefinition<ProducerRow, ProducerFilter> = {
  reads: ['producers', 'sessions'],
  build: (nodes) => {
    const sessions = sessionsOf(nodes);
    return nodes.flatMap((node) => rowsOf(node, 'producers').map((row) => producerRow(node.node, row, sessions)));
  },
  content: ['key', 'name', 'address', 'clientId', 'user'],
  list: {
    searchText: (row) => [row.address, row.name, row.clientId, row.user, row.remoteAddress, row.nodeName].join(' '),
    sortValues: {
      address: (row) => row.address,
      node: (row) => row.nodeName,
      remoteAddress: (row) => row.remoteAddress,
      clientId: (row) => row.clientId,
      user: (row) => row.user,
      sent: (row) => row.sent,
      sentBytes: (row) => row.sentBytes,
      createdAt: (row) => row.createdAt,
    },
    filters: {
      address: (row, value) => same(row.address, value),
      connection: (row, value) => same(row.connectionId, value),
      session: (row, value) => row.sessionId === value,
      remoteAddress: (row, value) => remoteAddressMatches(row.remoteAddress, value),
      node: byNode,
    },
  },
};

export const SESSION_FILTERS = ['connection', 'node'] as const;
type SessionFilter = (typeof SESSION_FILTERS)[number];

const sessions: KindDefinition<SessionRow, SessionFilter> = {
  reads: ['sessions'],
  build: (nodes) => nodes.flatMap((node) => rowsOf(node, 'sessions').map((row) => sessionRow(node.node, row))),
  content: ['clientId', 'user'],
  list: {
    searchText: (row) => [row.id, row.connectionId, row.clientId, row.user, row.nodeName].join(' '),
    sortValues: {
      node: (row) => row.nodeName,
      user: (row) => row.user,
      clientId: (row) => row.clientId,
      consumerCount: (row) => row.consumerCount,
      producerCount: (row) => row.producerCount,
      createdAt: (row) => row.createdAt,
    },
    filters: { connection: (row, value) => row.connectionId === value, node: byNode },
  },
};

export const CONNECTION_FILTERS = ['remoteAddress', 'node', 'protocol'] as const;
type ConnectionFilter = (typeof CONNECTION_FILTERS)[number];

const connections: KindDefinition<ConnectionRow, ConnectionFilter> = {
  reads: ['connections'],
  build: (nodes) => nodes.flatMap((node) => rowsOf(node, 'connections').map((row) => connectionRow(node.node, row))),
  content: ['clientId', 'users'],
  list: {
    searchText: (row) =>
      [row.id, row.remoteAddress, row.clientId, row.users.join(','), row.protocol, row.nodeName].join(' '),
    sortValues: {
      node: (row) => row.nodeName,
      remoteAddress: (row) => row.remoteAddress,
      protocol: (row) => row.protocol,
      clientId: (row) => row.clientId,
      sessionCount: (row) => row.sessionCount,
      createdAt: (row) => row.createdAt,
    },
    filters: {
      remoteAddress: (row, value) => remoteAddressMatches(row.remoteAddress, value),
      node: byNode,
      protocol: (row, value) => row.protocol.toUpperCase() === value.toUpperCase(),
    },
  },
};

export const ADDRESS_FILTERS = ['node', 'paging', 'internal', 'routingType'] as const;
type AddressFilter = (typeof ADDRESS_FILTERS)[number];

const addresses: KindDefinition<AddressRow, AddressFilter> = {
  reads: ['addresses'],
  build: (nodes) => nodes.flatMap((node) => rowsOf(node, 'addresses').map((row) => addressRow(node.node, row))),
  content: ['key', 'name'],
  list: {
    searchText: (row) => [row.name, row.nodeName].join(' '),
    sortValues: {
      name: (row) => row.name,
      node: (row) => row.nodeName,
      queueCount: (row) => row.queueCount,
      messageCount: (row) => row.messageCount,
      sizeBytes: (row) => row.sizeBytes,
      limitPercent: (row) => row.limitPercent,
      routed: (row) => row.routed,
      unrouted: (row) => row.unrouted,
    },
    filters: {
      node: byNode,
      paging: (row, value) => String(row.paging) === value,
      // Internal addresses (activemq.notifications, store-and-forward) are hidden unless asked for.
      internal: (row, value) => value === 'true' || !row.internal,
      routingType: (row, value) => row.routingTypes.includes(value.toUpperCase()),
    },
  },
};

export const RESOURCE_KINDS = { consumers, producers, sessions, connections, addresses } as const;
export type ResourceKind = keyof typeof RESOURCE_KINDS;

/** Every field a kind sorts by, for the input schemas. */
export function sortFieldsOf(kind: ResourceKind): [string, ...string[]] {
  return Object.keys(RESOURCE_KINDS[kind].list.sortValues) as [string, ...string[]];
}
