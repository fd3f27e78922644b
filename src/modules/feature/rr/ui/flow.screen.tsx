'use client';
// One request address of a cluster (`?address=…`, and the window in the URL): its numbers, its expectation, its
// latency and rates over time, and the correlations that did not complete, live on the cluster's `rr` signals.
import { Button, Code, Group, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, useSearchParams } from 'next/navigation';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { CorrelationsTable } from './correlations-table.tsx';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { ExpectationPanel } from './expectation-panel.tsx';
import { FeedNotice } from './feed-notice.tsx';
import { FeedBadge } from './flow-columns.tsx';
import { FlowCharts } from './flow-charts.tsx';
import { FlowSummaryStats } from './flow-summary.tsx';
import { rrFlowsPath } from './rr-paths.ts';
import { useRrWindow, WindowPicker } from './rr-window.tsx';

function FlowOf({ clusterId, address }: { clusterId: string; address: string }) {
  const trpc = useTRPC();
  const { window, setWindow } = useRrWindow();
  const flow = useQuery({
    ...trpc.rr.flow.queryOptions({ clusterId, address, window }),
    ...useLive(['rr']),
    placeholderData: keepPreviousData,
  });
  if (flow.isError) return <ProblemView error={flow.error} onRetry={() => void flow.refetch()} />;
  const data = flow.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="xs">
          <DataAge readAt={data?.asOf} refreshedWhen="the correlator stores new correlations" />
          {data && <FeedBadge mode={data.summary.feed.mode} />}
        </Group>
        <WindowPicker value={window} onChange={setWindow} />
      </Group>
      {data?.summary.feed.mode === 'sample' && data.summary.feed.notice && (
        <FeedNotice notice={data.summary.feed.notice} addresses={[address]} />
      )}
      {data && (
        <>
          <FlowSummaryStats summary={data.summary} />
          <ExpectationPanel clusterId={clusterId} summary={data.summary} />
          <PageSection title="Over time" description={`Buckets of ${String(data.bucketMs / 1000)} s over the window.`}>
            <FlowCharts flow={data} />
          </PageSection>
        </>
      )}
      <CorrelationsTable clusterId={clusterId} address={address} />
    </Stack>
  );
}

export function RrFlowScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const address = useSearchParams().get('address') ?? '';
  const trpc = useTRPC();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  const clusterName = cluster.data?.name ?? 'Cluster';
  return (
    <>
      <PageHeader
        title={address || 'Request-reply flow'}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: clusterName, href: `/clusters/${clusterId}` },
          { label: 'Request-reply', href: rrFlowsPath(clusterId) },
        ]}
        description="One request address: did its requests get their replies, how fast, and which did not."
      />
      {address ? (
        <FlowOf key={address} clusterId={clusterId} address={address} />
      ) : (
        <EmptyState
          title="No address named"
          action={
            <Button component={Link} href={rrFlowsPath(clusterId)} variant="light">
              The cluster&apos;s flows
            </Button>
          }
        >
          This screen shows one request address, named in its link (<Code>?address=…</Code>).
        </EmptyState>
      )}
    </>
  );
}
