'use client';
// The overview's nodes table: logical nodes in their order (a pair's primary first), the serving node, HA flags
// (marked as last known after a failed poll), health, last success and error, and the edit of a node's URLs.
import { Badge, Text } from '@mantine/core';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery, type LocalSource } from '@/ui/table/local-query.ts';
import { nodeHealth } from './cluster-health.ts';
import { HealthBadge } from './health-badge.tsx';
import { groupLogicalNodes } from './logical-nodes.ts';
import { NodeEditAction } from './node-edit-dialog.tsx';
import type { NodeRow } from './topology-view.tsx';

const flag = (value: boolean | null) => (value === null ? '—' : value ? 'yes' : 'no');

type NodeListRow = NodeRow & {
  readonly clusterId: string;
  readonly logicalKey: string;
  readonly isServing: boolean;
  readonly order: number;
};

const HEALTH_ORDER = { down: 0, degraded: 1, unknown: 2, healthy: 3 } as const;

const nodeColumns: readonly Column<NodeListRow>[] = [
  { id: 'logicalNode', header: 'Logical node', cell: (node) => node.logicalKey, sortField: 'logicalNode' },
  {
    id: 'broker',
    header: 'Broker',
    sortField: 'broker',
    cell: (node) => (
      <>
        <Text size="sm" fw={600}>
          {node.brokerName ?? '—'}
        </Text>
        <Text size="xs" ff="monospace" c="dimmed">
          {node.managementUrl}
        </Text>
      </>
    ),
  },
  { id: 'role', header: 'Role', cell: (node) => node.role, sortField: 'role' },
  {
    id: 'serving',
    header: 'Serving',
    width: 110,
    cell: (node) =>
      node.isServing ? (
        <Badge color="teal" size="sm">
          serving
        </Badge>
      ) : node.haPolledAt ? (
        'standby'
      ) : (
        <Text size="sm" c="dimmed">
          not polled yet
        </Text>
      ),
  },
  {
    id: 'ha',
    header: 'Active / Backup / Replica sync',
    cell: (node) => {
      const flags = `${flag(node.active)} / ${flag(node.backup)} / ${flag(node.replicaSync)}`;
      // A node whose last poll failed shows what it said before, marked as such, never as its current state.
      const stale = node.lastFailureAt !== null && (node.lastSuccessAt ?? '') < node.lastFailureAt;
      return stale ? (
        <Text size="sm" c="dimmed" title="The last poll failed: these flags are from the poll before">
          last known: {flags}
        </Text>
      ) : (
        flags
      );
    },
  },
  {
    id: 'health',
    header: 'Health',
    width: 120,
    sortField: 'health',
    cell: (node) => <HealthBadge health={nodeHealth(node)} />,
  },
  {
    id: 'lastSuccess',
    header: 'Last success',
    sortField: 'lastSuccess',
    cell: (node) => <TimeAgo iso={node.lastSuccessAt} empty="never" />,
  },
  {
    id: 'urlSource',
    header: 'URL found by',
    hiddenByDefault: true,
    cell: (node) => node.urlSource,
  },
  {
    id: 'lastError',
    header: 'Last error',
    cell: (node) => (
      <Text size="xs" c="red">
        {node.lastError ?? ''}
      </Text>
    ),
  },
  {
    id: 'actions',
    header: '',
    width: 110,
    cell: (node) => <NodeEditAction clusterId={node.clusterId} node={node} />,
  },
];

export function NodesTable({
  clusterId,
  nodes,
  source,
}: {
  clusterId: string;
  nodes: readonly NodeRow[] | undefined;
  source: LocalSource;
}) {
  const list = useListState({ sort: 'logicalNode', prefix: 'nodes' });
  // Logical nodes in their order, a pair's primary first: the default sort keeps that order.
  const rows = nodes
    ? groupLogicalNodes(nodes).flatMap((group) =>
        group.members.map((node) => ({
          ...node,
          clusterId,
          logicalKey: group.key,
          isServing: group.serving?.id === node.id,
        })),
      )
    : undefined;
  const ordered = rows?.map((row, order) => ({ ...row, order }));
  const query = localQuery(
    ordered,
    list,
    {
      text: (node) => [node.brokerName, node.managementUrl, node.role, node.logicalKey, node.lastError].join(' '),
      sortValue: (node, field) =>
        field === 'broker'
          ? (node.brokerName ?? node.managementUrl)
          : field === 'role'
            ? node.role
            : field === 'health'
              ? HEALTH_ORDER[nodeHealth(node)]
              : field === 'lastSuccess'
                ? Date.parse(node.lastSuccessAt ?? '') || 0
                : node.order,
    },
    source,
  );
  return (
    <div data-testid="cluster-nodes">
      <DataTable
        tableId="cluster-nodes"
        label="Nodes"
        columns={nodeColumns}
        rowKey={(node) => node.id}
        rowAttributes={(node) => ({ 'data-role': node.role })}
        list={list}
        query={query}
        searchPlaceholder="Search brokers, URLs, errors"
        empty={{ title: 'No nodes', description: 'Rediscover the cluster to find its nodes again.' }}
        minWidth={1000}
      />
    </div>
  );
}
