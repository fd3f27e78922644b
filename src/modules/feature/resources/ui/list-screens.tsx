'use client';
// Resources → Addresses, Consumers, Producers, Sessions and Connections of a cluster: live-through lists merged
// across the serving nodes, made live by the consumers, sessions and connections topics (the events module's
// signals), filtered, sorted and paged by the server. Addresses has Create address (resource-actions.tsx). The
// frame, the filters and the live query options are ResourceScreen's; each screen names its kind's parts.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useListState } from '@/ui/table/list-state.ts';
import {
  addressColumns,
  connectionColumns,
  consumerColumns,
  producerColumns,
  sessionColumns,
} from './resource-columns.tsx';
import type { FilterField } from './resource-filters.tsx';
import { CreateAddressButton } from './resource-actions.tsx';
import { listQueryInput, ResourceScreen, useClusterId, useLiveListOptions } from './resource-screen.tsx';

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];
const PROTOCOLS = ['CORE', 'AMQP', 'OPENWIRE', 'MQTT', 'STOMP'].map((value) => ({ value, label: value }));
const ROUTING_TYPES = [
  { value: 'ANYCAST', label: 'Anycast' },
  { value: 'MULTICAST', label: 'Multicast' },
];
const SHOWN_HIDDEN = [
  { value: 'true', label: 'Shown' },
  { value: 'false', label: 'Hidden' },
];

const CLIENT_ADDRESS = { filter: 'remoteAddress', label: 'Client address' } as const;
const CONNECTION = { filter: 'connection', label: 'Connection', width: 140 } as const;
const NODE = { filter: 'node', label: 'Node' } as const;

// Filters kept in the URL without a field of their own (address, session) arrive on links from other screens.
const CONSUMER_FILTERS = ['queue', 'address', 'connection', 'session', 'remoteAddress', 'node', 'slow'] as const;
const CONSUMER_FIELDS: FilterField<(typeof CONSUMER_FILTERS)[number]>[] = [
  { filter: 'queue', label: 'Queue' },
  CLIENT_ADDRESS,
  CONNECTION,
  NODE,
  { filter: 'slow', label: 'Slow', options: YES_NO, width: 100 },
];

const PRODUCER_FILTERS = ['address', 'connection', 'session', 'remoteAddress', 'node'] as const;
const PRODUCER_FIELDS: FilterField<(typeof PRODUCER_FILTERS)[number]>[] = [
  { filter: 'address', label: 'Address' },
  CLIENT_ADDRESS,
  CONNECTION,
  NODE,
];

const SESSION_FILTERS = ['connection', 'node'] as const;
const SESSION_FIELDS: FilterField<(typeof SESSION_FILTERS)[number]>[] = [CONNECTION, NODE];

const CONNECTION_FILTERS = ['remoteAddress', 'node', 'protocol'] as const;
const CONNECTION_FIELDS: FilterField<(typeof CONNECTION_FILTERS)[number]>[] = [
  CLIENT_ADDRESS,
  { filter: 'protocol', label: 'Protocol', options: PROTOCOLS, width: 130 },
  NODE,
];

const ADDRESS_FILTERS = ['node', 'paging', 'internal', 'routingType'] as const;
const ADDRESS_FIELDS: FilterField<(typeof ADDRESS_FILTERS)[number]>[] = [
  { filter: 'paging', label: 'Paging', options: YES_NO, width: 110 },
  { filter: 'routingType', label: 'Routing', options: ROUTING_TYPES, width: 130 },
  { filter: 'internal', label: 'Internal', options: SHOWN_HIDDEN, width: 110 },
  NODE,
];

export function ConsumersScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: 'queue', filters: CONSUMER_FILTERS });
  const query = useQuery({
    ...trpc.resources.consumers.queryOptions(listQueryInput(list, clusterId)),
    ...useLiveListOptions(['consumers']),
  });
  const columns = useMemo(() => consumerColumns(clusterId, { withQueue: true }), [clusterId]);
  return (
    <ResourceScreen
      title="Consumers"
      description="Who consumes each queue, from which host, with how many messages in flight, on every serving node."
      tableId="consumers"
      list={list}
      query={query}
      columns={columns}
      fields={CONSUMER_FIELDS}
      rowMenu="consumer"
      searchPlaceholder="Search queue, client, user, address"
      empty="No consumers"
      rowTone={(row) => (row.slow ? 'warning' : undefined)}
    />
  );
}

export function ProducersScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: 'address', filters: PRODUCER_FILTERS });
  const query = useQuery({
    ...trpc.resources.producers.queryOptions(listQueryInput(list, clusterId)),
    // Producers are read with their sessions (for the connection), so both topics end what is shown.
    ...useLiveListOptions(['sessions', 'connections']),
  });
  const columns = useMemo(() => producerColumns(clusterId), [clusterId]);
  return (
    <ResourceScreen
      title="Producers"
      description="Who sends to which address, from which host, and how much, on every serving node."
      tableId="producers"
      list={list}
      query={query}
      columns={columns}
      fields={PRODUCER_FIELDS}
      rowMenu="producer"
      searchPlaceholder="Search address, client, user"
      empty="No producers"
    />
  );
}

export function SessionsScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: '-createdAt', filters: SESSION_FILTERS });
  const query = useQuery({
    ...trpc.resources.sessions.queryOptions(listQueryInput(list, clusterId)),
    ...useLiveListOptions(['sessions']),
  });
  const columns = useMemo(() => sessionColumns(clusterId), [clusterId]);
  return (
    <ResourceScreen
      title="Sessions"
      description="Every session on the serving nodes with its connection and how many consumers and producers it holds."
      tableId="sessions"
      list={list}
      query={query}
      columns={columns}
      fields={SESSION_FIELDS}
      rowMenu="session"
      searchPlaceholder="Search session, connection, client, user"
      empty="No sessions"
    />
  );
}

export function ConnectionsScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: '-createdAt', filters: CONNECTION_FILTERS });
  const query = useQuery({
    ...trpc.resources.connections.queryOptions(listQueryInput(list, clusterId)),
    ...useLiveListOptions(['connections']),
  });
  const columns = useMemo(() => connectionColumns(clusterId), [clusterId]);
  return (
    <ResourceScreen
      title="Connections"
      description="Client connections on the serving nodes: protocol, where they come from, client id, users, sessions."
      tableId="connections"
      list={list}
      query={query}
      columns={columns}
      fields={CONNECTION_FIELDS}
      rowMenu="connection"
      searchPlaceholder="Search id, client address, client id, user"
      empty="No connections"
    />
  );
}

export function AddressesScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: 'name', filters: ADDRESS_FILTERS });
  const query = useQuery({
    ...trpc.resources.addresses.queryOptions(listQueryInput(list, clusterId)),
    ...useLiveListOptions(['queues']),
  });
  const columns = useMemo(() => addressColumns(clusterId), [clusterId]);
  return (
    <ResourceScreen
      title="Addresses"
      description="Addresses on every serving node: routing types, queues bound, memory against max-size, paging."
      actions={<CreateAddressButton clusterId={clusterId} />}
      tableId="addresses"
      list={list}
      query={query}
      columns={columns}
      fields={ADDRESS_FIELDS}
      rowMenu="address"
      searchPlaceholder="Search address"
      empty="No addresses"
      rowTone={(row) => (row.limitPercent >= 100 && !row.paging ? 'danger' : row.paging ? 'warning' : undefined)}
    />
  );
}
