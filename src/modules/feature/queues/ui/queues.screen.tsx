'use client';
// A cluster's queues: one row per queue with cluster totals over logical nodes (a primary and its backup count
// once), how many nodes list it, and stale numbers marked; filters in the URL, growing backlogs tinted, internal
// queues hidden unless asked for, and the filtered view exported as CSV. The name opens the queue; the row menu and the
// selection panel come from the `queue.actions` and `queues.selection` slots; Create queue opens its dry run first.
// Live on the `queues` topic. A failed read of the dead-letter settings is said above the table.
import { Alert } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams, useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { CsvExport } from '@/ui/table/csv-export.tsx';
import { QUEUE_CSV_COLUMNS, queueColumns } from './queue-columns.tsx';
import { QUEUE_FILTERS, QueueFilters, type QueueFilter } from './queue-filters.tsx';
import { queuesPath } from './queue-paths.ts';
import { CreateQueueButton } from './create-queue.tsx';
import { ClusterPicker, useWritesOff } from '@/modules/platform/clusters/ui.ts';

type ListInput = RouterInputs['queues']['list'];

/**
 * When the brokers' address settings could not be read, the dead-letter and expiry marks are not known: say so and
 * infer nothing (spec: Broker writes, safety rule 5).
 */
function DeadLetterSettingsNotice({
  settings,
}: {
  settings: { readAt: string | null; ok: boolean; error: string | null } | undefined;
}) {
  if (!settings || settings.ok) return null;
  return (
    <Alert color="yellow" title="Dead-letter and expiry queues not known" mb="sm" data-testid="dead-letter-settings">
      {settings.readAt
        ? `The last read of the brokers’ address settings failed (${settings.error ?? 'no reason given'}); the marks are those of the read at ${new Date(settings.readAt).toLocaleString()}.`
        : `The brokers’ address settings have not been read yet${settings.error ? ` (${settings.error})` : ''}, so no queue is marked as a dead-letter or expiry queue — none is guessed from its name.`}
    </Alert>
  );
}

export function QueuesScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const writesOff = useWritesOff(clusterId);
  const router = useRouter();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useListState<QueueFilter>({ sort: 'queueName', filters: QUEUE_FILTERS });
  const live = useLive(['queues']);
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const filters = Object.fromEntries(Object.entries(list.state.filters).filter(([, value]) => value !== undefined));
  const input: ListInput = {
    ...listInput(list.state),
    ...filters,
    sort: list.state.sort,
    clusterId,
  };
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
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description={`Every queue of ${cluster.data?.name ?? 'the cluster'} with its totals over logical nodes, as the scrape last read them.`}
        actions={
          <>
            <ClusterPicker
              value={clusterId}
              onChange={(picked) => picked && picked !== clusterId && router.push(queuesPath(picked))}
              w={260}
            />
            <CreateQueueButton clusterId={clusterId} />
          </>
        }
      />
      <DeadLetterSettingsNotice settings={query.data?.deadLetterSettings} />
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
        filters={<QueueFilters list={list} />}
        rowTone={(row) => (row.growing ? 'warning' : undefined)}
        rowAttributes={(row) => ({ 'data-growing': String(row.growing) })}
        toolbar={
          <CsvExport
            fileName={`queues-${cluster.data?.name ?? clusterId}`}
            columns={QUEUE_CSV_COLUMNS}
            fetchPage={(page, pageSize) =>
              queryClient.query(trpc.queues.list.queryOptions({ ...input, page, pageSize }))
            }
          />
        }
        rowMenu={{ kind: 'queue', clusterId, writesOff }}
        selection={{ slot: 'queues.selection', clusterId }}
      />
    </>
  );
}
