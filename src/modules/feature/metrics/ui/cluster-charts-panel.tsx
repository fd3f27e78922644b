'use client';
// The metrics module's `cluster.header` panel: the cluster's backlog per node and in total, and its in/out rates,
// over a chosen range (in the URL). Refreshed on the queues topic (each scrape sweep) and says how old it is.
import { Paper, SimpleGrid, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { LineChart, type LineSeries } from '@/ui/chart/line-chart.tsx';
import { ChartPanelHeader, useChartRange } from './chart-range.tsx';

const RANGES: Readonly<Record<string, number>> = { '1h': 3_600, '6h': 21_600, '24h': 86_400, '7d': 604_800 };

export function ClusterChartsPanel({ clusterId }: PanelSlotProps['cluster.header']) {
  const trpc = useTRPC();
  const range = useChartRange(RANGES);
  const series = useQuery({
    ...trpc.metrics.cluster.queryOptions({ clusterId, last: range.seconds }),
    ...useLive(['queues']),
    placeholderData: keepPreviousData,
  });
  const data = series.data;
  if (!data && !series.isError) return null;
  const total = data?.total ?? [];
  const perNode: LineSeries[] = (data?.nodes ?? []).map((node) => ({
    key: node.nodeId,
    label: node.brokerName ?? node.nodeId,
    points: node.points.map((point) => [Date.parse(point.t), point.depth] as const),
  }));
  const rates: LineSeries[] = [
    { key: 'in', label: 'in', points: total.map((point) => [Date.parse(point.t), point.inRate] as const) },
    { key: 'out', label: 'out', points: total.map((point) => [Date.parse(point.t), point.outRate] as const) },
  ];
  const newest = total.at(-1)?.t;
  return (
    <Paper withBorder p="md" radius="md" aria-label="Cluster metrics" data-testid="cluster-charts">
      <Stack gap="sm">
        <ChartPanelHeader title="Backlog and throughput" newest={newest} range={range} />
        {series.isError ? (
          <ProblemView error={series.error} onRetry={() => void series.refetch()} />
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <LineChart title="Backlog per node" unit="messages" series={perNode} />
            <LineChart title="Messages in and out, whole cluster" unit="messages/s" series={rates} />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
