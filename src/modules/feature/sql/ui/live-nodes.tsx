'use client';
// For a live read, per node: the queues it read and the management POSTs it made (one per page of queues), and what
// failed there. In the one table, kept in the component (it belongs to this answer only).
import { Text } from '@mantine/core';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';

export interface LiveNode {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly queues: number;
  readonly posts: number;
  readonly errors: readonly string[];
}

const COLUMNS: readonly Column<LiveNode>[] = [
  { id: 'nodeName', header: 'Node', sortField: 'nodeName', cell: (node) => node.nodeName },
  { id: 'queues', header: 'Queues read', sortField: 'queues', align: 'right', cell: (node) => node.queues },
  { id: 'posts', header: 'POSTs', sortField: 'posts', align: 'right', cell: (node) => node.posts },
  {
    id: 'errors',
    header: 'Errors',
    cell: (node) =>
      node.errors.length === 0 ? (
        <Text span size="sm" c="dimmed">
          none
        </Text>
      ) : (
        <Text span size="sm" c="red">
          {node.errors.join('; ')}
        </Text>
      ),
  },
];

const sortValue = (node: LiveNode, field: string): string | number =>
  field === 'queues' ? node.queues : field === 'posts' ? node.posts : node.nodeName;

export function LiveNodes({ nodes }: { nodes: readonly LiveNode[] }) {
  const list = useLocalListState({ sort: 'nodeName', pageSize: 10 });
  const query = localQuery(nodes, list, { text: (node) => node.nodeName, sortValue });
  return (
    <DataTable
      tableId="sql-live-nodes"
      label="Nodes read"
      columns={COLUMNS}
      rowKey={(node) => node.nodeId}
      list={list}
      query={query}
      searchPlaceholder="Search nodes"
      minWidth={480}
      rowTone={(node) => (node.errors.length > 0 ? 'danger' : undefined)}
      empty={{ title: 'No node serves the matched addresses', description: 'The live read asked no broker.' }}
    />
  );
}
