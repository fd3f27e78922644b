'use client';
// The range of a metrics panel, kept in the URL (`range`, left out at its default), and the panel's header: a
// title, the age of the newest sample, and the range picker. Shared by the queue's and the cluster's charts.
import { Group, SegmentedControl, Text } from '@mantine/core';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

const DEFAULT_RANGE = '1h';

/** The chosen range (one of `ranges`' names) and its length in seconds, with a setter that keeps the URL. */
export function useChartRange(ranges: Readonly<Record<string, number>>) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const asked = params.get('range') ?? DEFAULT_RANGE;
  const range = asked in ranges ? asked : DEFAULT_RANGE;
  const setRange = (value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value === DEFAULT_RANGE) next.delete('range');
    else next.set('range', value);
    router.replace(next.size > 0 ? `${pathname}?${next.toString()}` : pathname, { scroll: false });
  };
  return { range, seconds: ranges[range] ?? 3_600, setRange, names: Object.keys(ranges) };
}

export function ChartPanelHeader(props: {
  readonly title: string;
  readonly newest: string | undefined;
  readonly range: ReturnType<typeof useChartRange>;
}) {
  return (
    <Group justify="space-between">
      <Text fw={600}>{props.title}</Text>
      <Group gap="sm">
        <Text size="xs" c="dimmed">
          {props.newest ? (
            <>
              newest sample <TimeAgo iso={props.newest} />
            </>
          ) : (
            'no samples in this range yet'
          )}
        </Text>
        <SegmentedControl
          size="xs"
          data={props.range.names}
          value={props.range.range}
          onChange={props.range.setRange}
          aria-label="Range"
        />
      </Group>
    </Group>
  );
}
