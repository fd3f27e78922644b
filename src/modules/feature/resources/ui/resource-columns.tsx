// The columns of the five resource tables. Names link through the `<kind>.link` slots (queues to the queues
// module's page, connections, sessions and addresses to ours), so whichever module owns a kind's page is where the
// link goes; a node links to its facts.
import { Anchor, Badge, Code, Group, Text } from '@mantine/core';
import Link from 'next/link';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { nodePath } from './resource-paths.ts';

type Outputs = RouterOutputs['resources'];
export type ConsumerView = Outputs['consumers']['items'][number];
export type ProducerView = Outputs['producers']['items'][number];
export type SessionView = Outputs['sessions']['items'][number];
export type ConnectionView = Outputs['connections']['items'][number];
export type AddressView = Outputs['addresses']['items'][number];

const count = (value: number) => value.toLocaleString('en');
const dash = (value: string | null) => value ?? '—';

function nodeColumn<Row extends { nodeId: string; nodeName: string }>(clusterId: string): Column<Row> {
  return {
    id: 'node',
    header: 'Node',
    sortField: 'node',
    cell: (row) => (
      <Anchor component={Link} href={nodePath(clusterId, row.nodeId)} size="sm">
        {row.nodeName}
      </Anchor>
    ),
  };
}

function connectionColumn<Row extends { connectionId: string | null; nodeId: string }>(clusterId: string): Column<Row> {
  return {
    id: 'connection',
    header: 'Connection',
    cell: (row) =>
      row.connectionId ? (
        <EntityLink kind="connection" target={{ clusterId, key: row.connectionId, row }}>
          <Code>{row.connectionId}</Code>
        </EntityLink>
      ) : (
        '—'
      ),
  };
}

const created = <Row extends { createdAt: string | null }>(): Column<Row> => ({
  id: 'createdAt',
  header: 'Created',
  sortField: 'createdAt',
  cell: (row) => <TimeAgo iso={row.createdAt} />,
});

export function consumerColumns(clusterId: string, options: { withQueue: boolean }): Column<ConsumerView>[] {
  const columns: Column<ConsumerView>[] = [
    {
      id: 'queue',
      header: 'Queue',
      sortField: 'queue',
      cell: (row) => (
        <EntityLink kind="queue" target={{ clusterId, key: row.queue, row }}>
          {row.queue}
        </EntityLink>
      ),
    },
    nodeColumn(clusterId),
    {
      id: 'remoteAddress',
      header: 'Client address',
      sortField: 'remoteAddress',
      cell: (row) => <Code>{row.remoteAddress}</Code>,
    },
    { id: 'clientId', header: 'Client id', sortField: 'clientId', cell: (row) => dash(row.clientId) },
    { id: 'user', header: 'User', sortField: 'user', cell: (row) => dash(row.user), hiddenByDefault: true },
    {
      id: 'delivering',
      header: 'In flight',
      sortField: 'delivering',
      align: 'right',
      cell: (row) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {row.slow && (
            <Badge color="orange" size="xs" variant="light" data-testid="slow-consumer">
              slow
            </Badge>
          )}
          {count(row.delivering)}
        </Group>
      ),
    },
    {
      id: 'acknowledged',
      header: 'Acknowledged',
      sortField: 'acknowledged',
      align: 'right',
      cell: (row) => count(row.acknowledged),
    },
    {
      id: 'lastAcknowledgedAt',
      header: 'Last ack',
      sortField: 'lastAcknowledgedAt',
      cell: (row) => <TimeAgo iso={row.lastAcknowledgedAt} empty="never" />,
    },
    { id: 'filter', header: 'Filter', hiddenByDefault: true, cell: (row) => dash(row.filter) },
    {
      id: 'session',
      header: 'Session',
      hiddenByDefault: true,
      cell: (row) => (
        <EntityLink kind="session" target={{ clusterId, key: row.sessionId, row }}>
          <Code>{row.sessionId}</Code>
        </EntityLink>
      ),
    },
    connectionColumn(clusterId),
    { id: 'protocol', header: 'Protocol', hiddenByDefault: true, cell: (row) => row.protocol },
    { ...created<ConsumerView>(), hiddenByDefault: true },
    {
      id: 'status',
      header: 'Status',
      hiddenByDefault: true,
      cell: (row) => (row.status === 'OK' ? 'OK' : <Text c="red">{row.status}</Text>),
    },
  ];
  return options.withQueue ? columns : columns.filter((column) => column.id !== 'queue');
}

export function producerColumns(clusterId: string): Column<ProducerView>[] {
  return [
    {
      id: 'address',
      header: 'Address',
      sortField: 'address',
      cell: (row) =>
        row.address ? (
          <EntityLink kind="address" target={{ clusterId, key: row.address, row }}>
            {row.address}
          </EntityLink>
        ) : (
          <Text c="dimmed">any (anonymous)</Text>
        ),
    },
    nodeColumn(clusterId),
    {
      id: 'remoteAddress',
      header: 'Client address',
      sortField: 'remoteAddress',
      cell: (row) => <Code>{row.remoteAddress}</Code>,
    },
    { id: 'clientId', header: 'Client id', sortField: 'clientId', cell: (row) => dash(row.clientId) },
    { id: 'user', header: 'User', sortField: 'user', cell: (row) => dash(row.user) },
    { id: 'sent', header: 'Sent', sortField: 'sent', align: 'right', cell: (row) => count(row.sent) },
    {
      id: 'sentBytes',
      header: 'Bytes sent',
      sortField: 'sentBytes',
      align: 'right',
      hiddenByDefault: true,
      cell: (row) => count(row.sentBytes),
    },
    connectionColumn(clusterId),
    { id: 'protocol', header: 'Protocol', hiddenByDefault: true, cell: (row) => row.protocol },
    created(),
  ];
}

export function sessionColumns(clusterId: string): Column<SessionView>[] {
  return [
    {
      id: 'id',
      header: 'Session',
      cell: (row) => (
        <EntityLink kind="session" target={{ clusterId, key: row.id, row }}>
          <Code>{row.id}</Code>
        </EntityLink>
      ),
    },
    nodeColumn(clusterId),
    connectionColumn(clusterId),
    { id: 'clientId', header: 'Client id', sortField: 'clientId', cell: (row) => dash(row.clientId) },
    { id: 'user', header: 'User', sortField: 'user', cell: (row) => dash(row.user) },
    {
      id: 'consumerCount',
      header: 'Consumers',
      sortField: 'consumerCount',
      align: 'right',
      cell: (row) => count(row.consumerCount),
    },
    {
      id: 'producerCount',
      header: 'Producers',
      sortField: 'producerCount',
      align: 'right',
      cell: (row) => count(row.producerCount),
    },
    created(),
  ];
}

export function connectionColumns(clusterId: string): Column<ConnectionView>[] {
  return [
    {
      id: 'id',
      header: 'Connection',
      cell: (row) => (
        <EntityLink kind="connection" target={{ clusterId, key: row.id, row }}>
          <Code>{row.id}</Code>
        </EntityLink>
      ),
    },
    nodeColumn(clusterId),
    {
      id: 'remoteAddress',
      header: 'Client address',
      sortField: 'remoteAddress',
      cell: (row) => <Code>{row.remoteAddress}</Code>,
    },
    { id: 'protocol', header: 'Protocol', sortField: 'protocol', cell: (row) => row.protocol },
    { id: 'clientId', header: 'Client id', sortField: 'clientId', cell: (row) => dash(row.clientId) },
    { id: 'users', header: 'Users', cell: (row) => row.users.join(', ') || '—' },
    {
      id: 'sessionCount',
      header: 'Sessions',
      sortField: 'sessionCount',
      align: 'right',
      cell: (row) => count(row.sessionCount),
    },
    created(),
  ];
}

const bytes = (value: number) =>
  value >= 1_048_576
    ? `${(value / 1_048_576).toFixed(1)} MiB`
    : value >= 1024
      ? `${(value / 1024).toFixed(1)} KiB`
      : `${String(value)} B`;

export function addressColumns(clusterId: string): Column<AddressView>[] {
  return [
    {
      id: 'name',
      header: 'Address',
      sortField: 'name',
      cell: (row) => (
        <EntityLink kind="address" target={{ clusterId, key: row.name, row }}>
          {row.name}
        </EntityLink>
      ),
    },
    nodeColumn(clusterId),
    { id: 'routingTypes', header: 'Routing', cell: (row) => row.routingTypes.join(', ') },
    { id: 'queueCount', header: 'Queues', sortField: 'queueCount', align: 'right', cell: (row) => row.queueCount },
    {
      id: 'messageCount',
      header: 'Messages',
      sortField: 'messageCount',
      align: 'right',
      cell: (row) => count(row.messageCount),
    },
    {
      id: 'sizeBytes',
      header: 'Memory',
      sortField: 'sizeBytes',
      align: 'right',
      cell: (row) => bytes(row.sizeBytes),
    },
    {
      id: 'limitPercent',
      header: 'Of max-size',
      sortField: 'limitPercent',
      align: 'right',
      cell: (row) => `${String(row.limitPercent)}%`,
    },
    {
      id: 'paging',
      header: 'Paging',
      cell: (row) =>
        row.paging ? (
          <Badge color="orange" variant="light" data-testid="address-paging">
            paging, {row.pages} {row.pages === 1 ? 'page' : 'pages'}
          </Badge>
        ) : (
          'no'
        ),
    },
    {
      id: 'routed',
      header: 'Routed',
      sortField: 'routed',
      align: 'right',
      hiddenByDefault: true,
      cell: (row) => count(row.routed),
    },
    {
      id: 'unrouted',
      header: 'Unrouted',
      sortField: 'unrouted',
      align: 'right',
      hiddenByDefault: true,
      cell: (row) => count(row.unrouted),
    },
  ];
}
