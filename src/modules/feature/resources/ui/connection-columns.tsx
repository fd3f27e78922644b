// The columns of the connections table: the id links through the `connection.link` slot to its page.
import { Code } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { created, nodeColumn } from './column-parts.tsx';
import { count, dash } from './resource-format.ts';

type ConnectionView = RouterOutputs['resources']['connections']['items'][number];

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
