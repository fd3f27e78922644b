// Columns several resource tables share: the node a row was read from (linked to its facts), the connection it
// belongs to (through the `connection.link` slot) and when it was created.
import { Anchor, Code } from '@mantine/core';
import Link from 'next/link';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { nodePath } from './resource-paths.ts';

export function nodeColumn<Row extends { nodeId: string; nodeName: string }>(clusterId: string): Column<Row> {
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

export function connectionColumn<Row extends { connectionId: string | null; nodeId: string }>(
  clusterId: string,
): Column<Row> {
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

export const created = <Row extends { createdAt: string | null }>(): Column<Row> => ({
  id: 'createdAt',
  header: 'Created',
  sortField: 'createdAt',
  cell: (row) => <TimeAgo iso={row.createdAt} />,
});
