'use client';
// Clusters: every cluster you can see, grouped by environment (the default sort) and filterable by one, with node
// counts, health from the nodes' last success and failure, and capability badges.
import { Anchor, Badge, Button, Select, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLive } from '@/ui/stream/live-query.ts';
import Link from 'next/link';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { CapabilityBadges } from './capability-badges.tsx';
import { clusterHealth } from './cluster-health.ts';
import { HealthBadge } from './health-badge.tsx';

type ClusterRow = RouterOutputs['clusters']['list']['items'][number];
type ListInput = RouterInputs['clusters']['list'];

const COLUMNS: readonly Column<ClusterRow>[] = [
  {
    id: 'environment',
    header: 'Environment',
    width: 160,
    sortField: 'environment',
    cell: (row) => (row.environment ? <Badge variant="outline">{row.environment.name}</Badge> : '—'),
  },
  {
    id: 'name',
    header: 'Cluster',
    sortField: 'name',
    cell: (row) => (
      <Anchor component={Link} href={`/clusters/${row.id}`} fw={600}>
        {row.name}
      </Anchor>
    ),
  },
  {
    id: 'nodes',
    header: 'Nodes',
    width: 140,
    cell: (row) => (
      <Text size="sm">
        {row.nodeCount} ({row.logicalNodeCount} logical)
      </Text>
    ),
  },
  { id: 'health', header: 'Health', width: 120, cell: (row) => <HealthBadge health={clusterHealth(row)} /> },
  {
    id: 'capabilities',
    header: 'Capabilities',
    width: 260,
    cell: (row) => <CapabilityBadges values={row.capabilities} />,
  },
  {
    id: 'lastSuccess',
    header: 'Last success',
    width: 150,
    cell: (row) => <TimeAgo iso={row.lastSuccessAt} empty="never" />,
  },
  {
    id: 'created',
    header: 'Registered',
    width: 150,
    sortField: 'createdAt',
    hiddenByDefault: true,
    cell: (row) => <TimeAgo iso={row.createdAt} />,
  },
];

export function ClustersScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'environment', filters: ['environment'] });
  const environment = list.state.filters.environment;
  const input = {
    ...listInput(list.state),
    sort: list.state.sort as ListInput['sort'],
    ...(environment ? { environment } : {}),
  };
  // Live across clusters: a node going down anywhere sends a `health` signal on the installation's stream.
  const live = useLive(['health', 'topology']);
  const query = useQuery({ ...trpc.clusters.list.queryOptions(input), ...live, placeholderData: keepPreviousData });
  const environments = useQuery(trpc.clusters.environments.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  return (
    <>
      <PageHeader
        title="Clusters"
        description="Every Artemis cluster you can see, by environment: nodes, health from the latest polls, and what Flotilla may do on each."
        actions={
          <Button component={Link} href="/clusters/new" leftSection={<IconPlus size={16} />}>
            Register cluster
          </Button>
        }
      />
      <DataTable
        tableId="clusters"
        label="Clusters"
        columns={COLUMNS}
        rowKey={(row) => row.id}
        list={list}
        query={query}
        searchPlaceholder="Search clusters"
        filters={
          <Select
            label="Environment"
            placeholder="all"
            clearable
            w={200}
            data={(environments.data?.items ?? []).map((item) => ({ value: item.name, label: item.name }))}
            value={environment ?? null}
            onChange={(value) => list.setFilter('environment', value ?? undefined)}
          />
        }
        empty={{
          title: 'No clusters',
          description: (
            <>
              <Anchor component={Link} href="/clusters/new">
                Register a cluster
              </Anchor>{' '}
              from one of its nodes; Flotilla finds the others.
            </>
          ),
        }}
      />
    </>
  );
}
