'use client';
// The queues module's `cluster.header` panel on a cluster's overview: how many queues the scrape has seen, and
// the way to them.
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { queuesPath } from './queue-paths.ts';

export function ClusterQueuesSummary({ clusterId }: PanelSlotProps['cluster.header']) {
  const trpc = useTRPC();
  const queues = useQuery({
    ...trpc.queues.list.queryOptions({ clusterId, sort: '-messageCount', page: 1, pageSize: 1 }),
    ...useLive(['queues']),
  });
  const total = queues.data?.total;
  const busiest = queues.data?.items[0];
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Queues" data-testid="cluster-queues-summary">
      <Group justify="space-between" mih={24}>
        <Text size="sm">
          {total === undefined
            ? 'Queues'
            : `${total} ${total === 1 ? 'queue' : 'queues'}${busiest ? `; the deepest is ${busiest.queueName}` : ''}`}
        </Text>
        <Anchor component={Link} href={queuesPath(clusterId)} size="sm">
          Open queues
        </Anchor>
      </Group>
    </Paper>
  );
}
