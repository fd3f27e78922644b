'use client';
// The resources module's `queue.detail.panels` panel: who consumes this queue right now, from which hosts, with
// how many messages in flight each, slow ones marked; live on the consumers topic.
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { consumerColumns } from './resource-columns.tsx';
import { resourceListPath } from './resource-paths.ts';
import { useWritesOff } from '@/modules/platform/clusters/ui.ts';

export function QueueConsumersPanel({ clusterId, queueName }: PanelSlotProps['queue.detail.panels']) {
  const writesOff = useWritesOff(clusterId);
  const trpc = useTRPC();
  const list = useListState({ sort: '-delivering', pageSize: 10, prefix: 'consumers' });
  const query = useQuery({
    ...trpc.resources.consumers.queryOptions({ ...listInput(list.state), clusterId, queue: queueName }),
    ...useLive(['consumers']),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo(() => consumerColumns(clusterId, { withQueue: false }), [clusterId]);
  const data = query.data;
  const hosts = new Set((data?.items ?? []).map((row) => row.remoteAddress.replace(/^\//, '').replace(/:\d+$/, '')));
  const slow = (data?.items ?? []).filter((row) => row.slow).length;
  const failed = (data?.nodes ?? []).filter((node) => !node.ok);
  return (
    <Paper withBorder p="md" radius="md" aria-label="Consumers" data-testid="queue-consumers">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>Consumers</Text>
          <Anchor component={Link} href={resourceListPath(clusterId, 'consumers', { queue: queueName })} size="sm">
            All consumers of this queue
          </Anchor>
        </Group>
        {data && (
          <Text size="sm" c="dimmed" data-testid="queue-consumers-summary">
            {data.total} {data.total === 1 ? 'consumer' : 'consumers'}
            {data.items.length > 0 ? ` from ${String(hosts.size)} ${hosts.size === 1 ? 'host' : 'hosts'}` : ''}
            {slow > 0 ? `, ${String(slow)} slow` : ''}
            {failed.length > 0 ? `; ${failed.map((node) => node.nodeName).join(', ')} did not answer` : ''}; read{' '}
            <TimeAgo iso={data.fetchedAt} inline />.
          </Text>
        )}
        <DataTable
          tableId="queue-consumers"
          label="Consumers of the queue"
          columns={columns}
          rowKey={(row) => row.key}
          list={list}
          query={query}
          searchPlaceholder="Search client, host, user"
          empty={{ title: 'No consumers', description: 'Nobody consumes this queue on any serving node right now.' }}
          rowMenu={{ kind: 'consumer', clusterId, writesOff }}
          rowTone={(row) => (row.slow ? 'warning' : undefined)}
        />
      </Stack>
    </Paper>
  );
}
