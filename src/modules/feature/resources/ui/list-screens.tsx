'use client';
// Resources → Addresses, Consumers, Producers, Sessions and Connections of a cluster: live-through lists merged
// across the serving nodes, made live by the consumers, sessions and connections topics (the events module's
// signals), filtered, sorted and paged by the server. Addresses has Create address (resource-actions.tsx).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import {
  addressColumns,
  connectionColumns,
  consumerColumns,
  producerColumns,
  sessionColumns,
} from './resource-columns.tsx';
import { activeFilters, ResourceFilters, type FilterField } from './resource-filters.tsx';
import { CreateAddressButton } from './resource-actions.tsx';
import { ResourceScreen, useClusterId } from './resource-screen.tsx';

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

const CONSUMER_FIELDS: FilterField<
  'queue' | 'address' | 'connection' | 'session' | 'remoteAddress' | 'node' | 'slow'
>[] = [
  { filter: 'queue', label: 'Queue' },
  { filter: 'remoteAddress', label: 'Client address' },
  { filter: 'connection', label: 'Connection', width: 140 },
  { filter: 'node', label: 'Node' },
  { filter: 'slow', label: 'Slow', options: YES_NO, width: 100 },
];

export function ConsumersScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({
    sort: 'queue',
    filters: ['queue', 'address', 'connection', 'session', 'remoteAddress', 'node', 'slow'] as const,
  });
  const query = useQuery({
    ...trpc.resources.consumers.queryOptions({
      ...listInput(list.state),
      ...activeFilters(list.state.filters),
      clusterId,
    }),
    ...useLive(['consumers']),
    placeholderData: keepPreviousData,
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
      filters={<ResourceFilters list={list} fields={CONSUMER_FIELDS} nodes={query.data?.nodes ?? []} />}
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
  const list = useListState({
    sort: 'address',
    filters: ['address', 'connection', 'session', 'remoteAddress', 'node'] as const,
  });
  const query = useQuery({
    ...trpc.resources.producers.queryOptions({
      ...listInput(list.state),
      ...activeFilters(list.state.filters),
      clusterId,
    }),
    ...useLive(['sessions', 'connections']),
    placeholderData: keepPreviousData,
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
      filters={
        <ResourceFilters
          list={list}
          fields={[
            { filter: 'address', label: 'Address' },
            { filter: 'remoteAddress', label: 'Client address' },
            { filter: 'connection', label: 'Connection', width: 140 },
            { filter: 'node', label: 'Node' },
          ]}
          nodes={query.data?.nodes ?? []}
        />
      }
      rowMenu="producer"
      searchPlaceholder="Search address, client, user"
      empty="No producers"
    />
  );
}

export function SessionsScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: '-createdAt', filters: ['connection', 'node'] as const });
  const query = useQuery({
    ...trpc.resources.sessions.queryOptions({
      ...listInput(list.state),
      ...activeFilters(list.state.filters),
      clusterId,
    }),
    ...useLive(['sessions']),
    placeholderData: keepPreviousData,
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
      filters={
        <ResourceFilters
          list={list}
          fields={[
            { filter: 'connection', label: 'Connection', width: 140 },
            { filter: 'node', label: 'Node' },
          ]}
          nodes={query.data?.nodes ?? []}
        />
      }
      rowMenu="session"
      searchPlaceholder="Search session, connection, client, user"
      empty="No sessions"
    />
  );
}

const PROTOCOLS = ['CORE', 'AMQP', 'OPENWIRE', 'MQTT', 'STOMP'].map((value) => ({ value, label: value }));

export function ConnectionsScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: '-createdAt', filters: ['remoteAddress', 'node', 'protocol'] as const });
  const query = useQuery({
    ...trpc.resources.connections.queryOptions({
      ...listInput(list.state),
      ...activeFilters(list.state.filters),
      clusterId,
    }),
    ...useLive(['connections']),
    placeholderData: keepPreviousData,
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
      filters={
        <ResourceFilters
          list={list}
          fields={[
            { filter: 'remoteAddress', label: 'Client address' },
            { filter: 'protocol', label: 'Protocol', options: PROTOCOLS, width: 130 },
            { filter: 'node', label: 'Node' },
          ]}
          nodes={query.data?.nodes ?? []}
        />
      }
      rowMenu="connection"
      searchPlaceholder="Search id, client address, client id, user"
      empty="No connections"
    />
  );
}

export function AddressesScreen() {
  const clusterId = useClusterId();
  const trpc = useTRPC();
  const list = useListState({ sort: 'name', filters: ['node', 'paging', 'internal', 'routingType'] as const });
  const query = useQuery({
    ...trpc.resources.addresses.queryOptions({
      ...listInput(list.state),
      ...activeFilters(list.state.filters),
      clusterId,
    }),
    ...useLive(['queues']),
    placeholderData: keepPreviousData,
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
      filters={
        <ResourceFilters
          list={list}
          fields={[
            { filter: 'paging', label: 'Paging', options: YES_NO, width: 110 },
            {
              filter: 'routingType',
              label: 'Routing',
              options: [
                { value: 'ANYCAST', label: 'Anycast' },
                { value: 'MULTICAST', label: 'Multicast' },
              ],
              width: 130,
            },
            {
              filter: 'internal',
              label: 'Internal',
              options: [
                { value: 'true', label: 'Shown' },
                { value: 'false', label: 'Hidden' },
              ],
              width: 110,
            },
            { filter: 'node', label: 'Node' },
          ]}
          nodes={query.data?.nodes ?? []}
        />
      }
      rowMenu="address"
      searchPlaceholder="Search address"
      empty="No addresses"
      rowTone={(row) => (row.limitPercent >= 100 && !row.paging ? 'danger' : row.paging ? 'warning' : undefined)}
    />
  );
}
