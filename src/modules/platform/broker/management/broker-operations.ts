// Typed management operations later modules need, each one bulk POST. Signatures are always spelled out because
// Jolokia refuses overloaded operations without them; list options always carry field/operation/value (brokers
// before 2.38 throw on blank options) and both sort keys (sortColumn before 2.38, sortField after).
import { ManagementError } from './management-error.ts';
import type { ManagementClient } from './management-client.ts';

export interface BrokerState {
  readonly name: string;
  readonly version: string;
  readonly nodeId: string;
  readonly started: boolean;
  readonly active: boolean;
  readonly backup: boolean;
  readonly replicaSync: boolean;
  readonly haPolicy: string;
  /** Where a message becomes a management request (`management-address`), as this broker is configured. */
  readonly managementAddress: string;
  /** Where the broker publishes its notifications (`management-notification-address`). */
  readonly notificationAddress: string;
}

/** A scalar attribute as text; Jolokia renders Java strings, numbers and booleans as JSON scalars. */
export function attributeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

const STATE_ATTRIBUTES = [
  'Name',
  'Version',
  'NodeID',
  'Started',
  'Active',
  'Backup',
  'ReplicaSync',
  'HAPolicy',
  'ManagementAddress',
  'ManagementNotificationAddress',
];

/** Identity, HA state and the broker's own management and notification addresses in one read. */
export async function readBrokerState(client: ManagementClient): Promise<BrokerState> {
  const mbean = await client.brokerObjectName();
  const value = (await client.callOne({ type: 'read', mbean, attribute: STATE_ATTRIBUTES })) as Record<string, unknown>;
  return {
    name: attributeText(value.Name),
    version: attributeText(value.Version),
    nodeId: attributeText(value.NodeID),
    started: value.Started === true,
    active: value.Active === true,
    backup: value.Backup === true,
    replicaSync: value.ReplicaSync === true,
    haPolicy: attributeText(value.HAPolicy),
    managementAddress: attributeText(value.ManagementAddress),
    notificationAddress: attributeText(value.ManagementNotificationAddress),
  };
}

/** An acceptor that takes AMQP, as the broker reports its own acceptors. */
export interface AmqpAcceptor {
  readonly name: string;
  /** As configured: may be a wildcard (0.0.0.0, ::) that a client cannot dial. */
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
}

interface RawAcceptor {
  name?: string;
  params?: Record<string, unknown>;
}

/**
 * The broker's own AMQP acceptors (AcceptorsAsJSON): those whose `protocols` include AMQP or are not restricted,
 * plain ones before TLS ones, so a node tells where its AMQP ports are (and whether its cluster connector is one).
 */
export async function readAmqpAcceptors(client: ManagementClient): Promise<AmqpAcceptor[]> {
  const mbean = await client.brokerObjectName();
  const raw = await client.callOne({ type: 'read', mbean, attribute: 'AcceptorsAsJSON' });
  let acceptors: RawAcceptor[];
  try {
    acceptors = JSON.parse(attributeText(raw)) as RawAcceptor[];
  } catch {
    return [];
  }
  const amqp = acceptors
    .map((acceptor) => {
      const params = acceptor.params ?? {};
      const protocols = attributeText(params.protocols).toUpperCase();
      return {
        name: acceptor.name ?? '',
        host: attributeText(params.host),
        port: Number(attributeText(params.port)),
        tls: attributeText(params.sslEnabled).toLowerCase() === 'true',
        speaksAmqp:
          protocols === '' ||
          protocols
            .split(',')
            .map((p) => p.trim())
            .includes('AMQP'),
      };
    })
    .filter((acceptor) => acceptor.speaksAmqp && Number.isInteger(acceptor.port) && acceptor.port > 0);
  return [...amqp]
    .sort((a, b) => Number(a.tls) - Number(b.tls))
    .map(({ name, host, port, tls }) => ({ name, host, port, tls }));
}

export interface TopologyMember {
  readonly nodeId: string;
  readonly primary: string;
  readonly backup: string | undefined;
}

export async function listNetworkTopology(client: ManagementClient): Promise<TopologyMember[]> {
  const mbean = await client.brokerObjectName();
  const raw = await client.callOne({ type: 'exec', mbean, operation: 'listNetworkTopology()', arguments: [] });
  const members = JSON.parse(String(raw)) as Array<{
    nodeID: string;
    live?: string;
    primary?: string;
    backup?: string;
  }>;
  return members.map((member) => ({
    nodeId: member.nodeID,
    primary: member.primary ?? member.live ?? '',
    backup: member.backup,
  }));
}

export type ListKind = 'queues' | 'addresses' | 'connections' | 'sessions' | 'consumers' | 'producers';

const LIST_OPERATIONS: Record<ListKind, string> = {
  queues: 'listQueues(java.lang.String,int,int)',
  addresses: 'listAddresses(java.lang.String,int,int)',
  connections: 'listConnections(java.lang.String,int,int)',
  sessions: 'listSessions(java.lang.String,int,int)',
  consumers: 'listConsumers(java.lang.String,int,int)',
  producers: 'listProducers(java.lang.String,int,int)',
};

type ListOperator = 'CONTAINS' | 'NOT_CONTAINS' | 'EQUALS' | 'NOT_EQUALS' | 'GREATER_THAN' | 'LESS_THAN';

export interface ListQuery {
  readonly filter?: { readonly field: string; readonly operation: ListOperator; readonly value: string };
  readonly sort?: { readonly field: string; readonly order: 'asc' | 'desc' };
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

export interface ListPage {
  /** Rows as the broker sends them: queue and address values are all strings. */
  readonly rows: Array<Record<string, unknown>>;
  /** Rows matching the filter before paging. */
  readonly total: number;
}

function listOptionsJson(query: Pick<ListQuery, 'filter' | 'sort'>): string {
  const options: Record<string, string> = {
    field: query.filter?.field ?? '',
    operation: query.filter?.operation ?? '',
    value: query.filter?.value ?? '',
  };
  if (query.sort) {
    options.sortColumn = query.sort.field;
    options.sortField = query.sort.field;
    options.sortOrder = query.sort.order;
  }
  return JSON.stringify(options);
}

function parseListPage(raw: unknown): ListPage {
  const parsed = JSON.parse(String(raw)) as { data?: Array<Record<string, unknown>>; count?: number };
  return { rows: parsed.data ?? [], total: parsed.count ?? 0 };
}

/** One page of a broker list. */
async function listResources(client: ManagementClient, kind: ListKind, query: ListQuery): Promise<ListPage> {
  const [page] = await listResourcePages(client, kind, [query]);
  if (!page) throw new ManagementError('broker-error', 'no page returned', client.nodeKey);
  return page;
}

/** Several pages (or several filters) of a broker list in one bulk POST. */
export async function listResourcePages(
  client: ManagementClient,
  kind: ListKind,
  queries: readonly ListQuery[],
): Promise<ListPage[]> {
  return listPagesOfKinds(
    client,
    queries.map((query) => ({ kind, query })),
  );
}

/** Pages of several lists (consumers and sessions, say) in one bulk POST, in the order asked. */
export async function listPagesOfKinds(
  client: ManagementClient,
  requests: ReadonlyArray<{ readonly kind: ListKind; readonly query: ListQuery }>,
): Promise<ListPage[]> {
  const mbean = await client.brokerObjectName();
  const results = await client.call(
    requests.map(({ kind, query }) => ({
      type: 'exec' as const,
      mbean,
      operation: LIST_OPERATIONS[kind],
      arguments: [listOptionsJson(query), query.page, query.pageSize],
    })),
  );
  return results.map((result) => {
    if (!result.ok) throw result.error;
    return parseListPage(result.value);
  });
}

/**
 * Every row of a list: the first page tells the total, the remaining pages go out together in bulk POSTs of
 * `pagesPerCall` pages each.
 */
export async function listAll(
  client: ManagementClient,
  kind: ListKind,
  query: Omit<ListQuery, 'page'>,
  pagesPerCall = 10,
): Promise<ListPage> {
  const first = await listResources(client, kind, { ...query, page: 1 });
  const pageCount = Math.ceil(first.total / query.pageSize);
  const rows = [...first.rows];
  for (let page = 2; page <= pageCount; page += pagesPerCall) {
    const pages = Array.from({ length: Math.min(pagesPerCall, pageCount - page + 1) }, (_, i) => ({
      ...query,
      page: page + i,
    }));
    for (const result of await listResourcePages(client, kind, pages)) rows.push(...result.rows);
  }
  return { rows, total: first.total };
}

export interface QueueSpec {
  readonly name: string;
  readonly address?: string;
  readonly routingType?: 'ANYCAST' | 'MULTICAST';
  readonly durable?: boolean;
}

function queueConfigurationJson(queue: QueueSpec): string {
  return JSON.stringify({
    name: queue.name,
    address: queue.address ?? queue.name,
    'routing-type': queue.routingType ?? 'ANYCAST',
    durable: queue.durable ?? true,
    'auto-create-address': true,
  });
}

/** Creates queues (and their addresses), many per bulk POST; existing ones are left alone. */
export async function createQueues(client: ManagementClient, queues: readonly QueueSpec[]): Promise<void> {
  const mbean = await client.brokerObjectName();
  const results = await client.call(
    queues.map((queue) => ({
      type: 'exec' as const,
      mbean,
      operation: 'createQueue(java.lang.String,boolean)',
      arguments: [queueConfigurationJson(queue), true],
    })),
  );
  for (const result of results) if (!result.ok) throw result.error;
}

/** Destroys queues, removing their consumers; many per bulk POST. */
export async function destroyQueues(client: ManagementClient, names: readonly string[]): Promise<void> {
  const mbean = await client.brokerObjectName();
  const results = await client.call(
    names.map((name) => ({
      type: 'exec' as const,
      mbean,
      operation: 'destroyQueue(java.lang.String,boolean)',
      arguments: [name, true],
    })),
  );
  for (const result of results) if (!result.ok) throw result.error;
}
