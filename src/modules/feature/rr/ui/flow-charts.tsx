'use client';
// One request address over the window, from the flow's buckets (`bucketMs` each, starting at `at`): p50/p95/p99
// reply latency, and the request and reply rates per minute. Drawn by the console's one chart (ECharts).
import { SimpleGrid } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { LineChart, type LineSeries } from '@/ui/chart/line-chart.tsx';

type Flow = RouterOutputs['rr']['flow'];
type Bucket = Flow['series'][number];

export function FlowCharts({ flow }: { flow: Flow }) {
  const line = (key: string, label: string, pick: (bucket: Bucket) => number | null): LineSeries => ({
    key,
    label,
    points: flow.series.map((bucket) => [Date.parse(bucket.at), pick(bucket)] as const),
  });
  const perMinute = (count: number) => (count * 60_000) / flow.bucketMs;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="flow-charts" data-bucket-ms={flow.bucketMs}>
      <LineChart
        title="Reply latency"
        unit="ms"
        series={[
          line('p50', 'p50', (bucket) => bucket.p50),
          line('p95', 'p95', (bucket) => bucket.p95),
          line('p99', 'p99', (bucket) => bucket.p99),
        ]}
      />
      <LineChart
        title="Requests and replies"
        unit="per minute"
        series={[
          line('requests', 'Requests', (bucket) => perMinute(bucket.requests)),
          line('replies', 'Replies', (bucket) => perMinute(bucket.replies)),
        ]}
      />
    </SimpleGrid>
  );
}
