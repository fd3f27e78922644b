'use client';
// The metrics module's `queue.detail.panels` panel: depth, in-rate, out-rate and consumers of the queue over a
// chosen range, a line per node. The range is in the URL; the charts refresh on the queues topic (each scrape sweep).
import { Paper, SimpleGrid, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { LineChart, type LineSeries } from '@/ui/chart/line-chart.tsx';
import { ChartPanelHeader, useChartRange } from './chart-range.tsx';

/** The ranges offered, in seconds. */
const RANGES: Readonly<Record<string, number>> = {
  '15m': 900,
  '1h': 3_600,
  '6h': 21_600,
  '24h': 86_400,
  '7d': 604_800,
};

export function QueueChartsPanel({ clusterId, queueName }: PanelSlotProps['queue.detail.panels']) {
  const trpc = useTRPC();
  const range = useChartRange(RANGES);
  const series = useQuery({
    ...trpc.metrics.queue.queryOptions({
      clusterId,
      queue: queueName,
      last: range.seconds,
    }),
    ...useLive(['queues']),
    placeholderData: keepPreviousData,
  });
  const nodes = series.data?.nodes ?? [];
  const lines = (pick: (point: (typeof nodes)[number]['points'][number]) => number | null): LineSeries[] =>
    nodes.map((node) => ({
      key: node.nodeId,
      label: node.brokerName ?? node.nodeId,
      points: node.points.map((point) => [Date.parse(point.t), pick(point)] as const),
    }));
  const newest = nodes
    .flatMap((node) => node.points.map((point) => point.t))
    .sort()
    .at(-1);
  return (
    <Paper withBorder p="md" radius="md" aria-label="Metrics" data-testid="queue-charts">
      <Stack gap="sm">
        <ChartPanelHeader title="Metrics" newest={newest} range={range} />
        {series.isError ? (
          <ProblemView error={series.error} onRetry={() => void series.refetch()} />
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <LineChart title="Depth" unit="messages" series={lines((point) => point.depth)} />
            <LineChart title="In-rate" unit="messages/s" series={lines((point) => point.inRate)} />
            <LineChart title="Out-rate" unit="messages/s" series={lines((point) => point.outRate)} />
            <LineChart title="Consumers" unit="consumers" series={lines((point) => point.consumers)} />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
