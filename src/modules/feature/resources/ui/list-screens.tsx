'use client';
// Resources → Addresses, Consumers, Producers, Sessions and Connections of a cluster: live-through lists merged
// across the serving nodes, made live by the consumers, sessions and connections topics (the events module's
// signals), filtered, sorted and paged by the server. Addresses has Create address (resource-actions.tsx). The
// frame, the filters and the live query options are ResourceScreen's; each screen names its kind's parts: its
// columns, and its filters (list-filters.ts).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useListState } from '@/ui/table/list-state.ts';
import { addressColumns } from './address-columns.tsx';
import { connectionColumns } from './connection-columns.tsx';
import {
  ADDRESS_FIELDS,
  ADDRESS_FILTERS,
  CONNECTION_FIELDS,
  CONNECTION_FILTERS,
  CONSUMER_FIELDS,
  CONSUMER_FILTERS,
  PRODUCER_FIELDS,
  PRODUCER_FILTERS,
  SESSION_FIELDS,
  SESSION_FILTERS,
} from './list-filters.ts';
import { CreateAddressButton } from './resource-actions.tsx';
import { consumerColumns, producerColumns, sessionColumns } from './resource-columns.tsx';
import { listQueryInput, ResourceScreen, useClusterId, useLiveListOptions } from './resource-screen.tsx';

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
