// The columns of the consumer, producer and session tables (a connection's page shows all three; connection-columns
// and address-columns hold the other two kinds'). Names link through the `<kind>.link` slots (queues to the queues
// module's page, connections, sessions and addresses to ours), so whichever module owns a kind's page is where the
// link goes; a node links to its facts.
import { Badge, Code, Group, Text } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { connectionColumn, created, nodeColumn } from './column-parts.tsx';
import { count, dash } from './resource-format.ts';

type Outputs = RouterOutputs['resources'];
export type ConsumerView = Outputs['consumers']['items'][number];
export type ProducerView = Outputs['producers']['items'][number];
export type SessionView = Outputs['sessions']['items'][number];

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
