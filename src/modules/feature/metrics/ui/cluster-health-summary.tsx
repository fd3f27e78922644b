'use client';
// The metrics module's `cluster.header` panel on a cluster's overview: how many queues need attention by their
// consumer-health verdict, and the way to the list.
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { healthSummaryText } from './health-summary-text.ts';

export function ClusterHealthSummary({ clusterId }: PanelSlotProps['cluster.header']) {
  const trpc = useTRPC();
  const health = useQuery({
    ...trpc.metrics.consumerHealth.queryOptions({ clusterId, page: 1, pageSize: 1 }),
    ...useLive(['queues', 'events']),
  });
  const counts = health.data?.counts;
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Consumer health" data-testid="cluster-health-summary">
      <Group justify="space-between" mih={24}>
        <Text size="sm">{counts ? healthSummaryText(counts) : 'Consumer health'}</Text>
        <Anchor component={Link} href={`/clusters/${clusterId}/consumer-health`} size="sm">
          Consumer health
        </Anchor>
      </Group>
    </Paper>
  );
}
