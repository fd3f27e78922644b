'use client';
// Messaging → Request-reply of a cluster: every request address with traffic in the window (or a declared
// expectation), its latency percentiles and what went wrong, live on the cluster's `rr` signals. A sampled address
// says what its feed cannot see, always. Below, an expectation is declared (dry run first).
import { Group, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { ExpectationForm } from './expectation-form.tsx';
import { FeedNotice, sampledNotices } from './feed-notice.tsx';
import { flowColumns } from './flow-columns.tsx';
import { rrFlowsPath } from './rr-paths.ts';
import { useRrWindow, WindowPicker } from './rr-window.tsx';

export function RrFlowsScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const router = useRouter();
  const trpc = useTRPC();
  const list = useListState({ sort: '-requests' });
  const { window, setWindow } = useRrWindow();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const flows = useQuery({
    ...trpc.rr.flows.queryOptions({ ...listInput(list.state), clusterId, window }),
    ...useLive(['rr']),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo(() => flowColumns(clusterId, window), [clusterId, window]);
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  return (
    <>
      <PageHeader
        title="Request-reply"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="Did each request get its answer: per request address, the requests of the window, their reply latency and the ones that timed out, were dropped by the responder or left orphaned."
        actions={
          <ClusterPicker
            value={clusterId}
            onChange={(picked) => picked && picked !== clusterId && router.push(rrFlowsPath(picked))}
            w={240}
          />
        }
      />
      <Stack gap="sm">
        <Group justify="space-between">
          <DataAge readAt={flows.data?.asOf} refreshedWhen="the correlator stores new correlations" />
          <WindowPicker value={window} onChange={setWindow} />
        </Group>
        {sampledNotices(flows.data?.items ?? []).map((sampled) => (
          <FeedNotice key={sampled.notice} notice={sampled.notice} addresses={sampled.addresses} />
        ))}
        <DataTable
          tableId="rr-flows"
          label="Request-reply flows"
          columns={columns}
          rowKey={(row) => row.address}
          rowAttributes={(row) => ({ 'data-address': row.address, 'data-feed': row.feed.mode })}
          rowTone={(row) => (row.timedOutShare !== null && row.timedOutShare > 0 ? 'warning' : undefined)}
          list={list}
          query={flows}
          searchPlaceholder="Search request address"
          empty={{
            title: 'No request-reply traffic in this window',
            description:
              'Addresses appear once the correlator sees requests on them (captured by the SQL module, or sampled for a declared expectation). Declare an expectation below to have an address followed.',
          }}
        />
        <PageSection
          title="Declare an expectation"
          description="The latency an address's replies should keep and the deadline past which a request without a reply is settled. Its address (and its reply address) is then followed: sampled every rr.sample.interval unless the SQL module captures it."
        >
          <ExpectationForm clusterId={clusterId} />
        </PageSection>
      </Stack>
    </>
  );
}
