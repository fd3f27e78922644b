'use client';
// A cluster's queues: one row per queue with cluster totals over logical nodes (a primary and its backup count
// once), how many nodes list it, and stale numbers marked. The name opens the queue; the row menu and the
// selection panel come from the `queue.actions` and `queues.selection` slots. Live on the `queues` topic.
import { Select } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { queueColumns } from './queue-columns.tsx';
import { queuesPath } from './queue-paths.ts';

type ListInput = RouterInputs['queues']['list'];

/** Switches to the same screen of another cluster the viewer can see. */
export function ClusterPicker({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const options = (clusters.data?.items ?? []).map((cluster) => ({
    value: cluster.id,
    label: cluster.environment ? `${cluster.name} (${cluster.environment.name})` : cluster.name,
  }));
  return (
    <Select
      aria-label="Cluster"
      data={options}
      value={clusterId}
      onChange={(value) => value && value !== clusterId && router.push(queuesPath(value))}
      allowDeselect={false}
      searchable
      w={260}
    />
  );
}

export function QueuesScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const trpc = useTRPC();
  const list = useListState({ sort: 'queueName' });
  const live = useLive(['queues']);
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const input = { ...listInput(list.state), sort: list.state.sort as ListInput['sort'], clusterId };
  const query = useQuery({
    ...trpc.queues.list.queryOptions(input),
    ...live,
    placeholderData: keepPreviousData,
  });
  const columns = useMemo(() => queueColumns(clusterId), [clusterId]);
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  return (
    <>
      <PageHeader
        title="Queues"
        description={`Every queue of ${cluster.data?.name ?? 'the cluster'} with its totals over logical nodes, as the scrape last read them.`}
        actions={<ClusterPicker clusterId={clusterId} />}
      />
      <DataTable
        tableId="queues"
        label="Queues"
        columns={columns}
        rowKey={(row) => row.queueName}
        list={list}
        query={query}
        searchPlaceholder="Search queue or address"
        empty={{
          title: 'No queues yet',
          description: 'The scrape lists every queue within one tier-C sweep (5 minutes by default) of registration.',
        }}
        rowMenu={{ kind: 'queue', clusterId }}
        selection={{ slot: 'queues.selection', clusterId }}
      />
    </>
  );
}
