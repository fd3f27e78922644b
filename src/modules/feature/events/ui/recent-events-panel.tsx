'use client';
// The events module's `queue.detail.panels` panel: the queue's latest notifications (consumers attaching and
// leaving, bindings), live on the events topic, with the way to all of them.
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { eventColumns, type EventRow } from './event-columns.tsx';
import { EventDrawer } from './event-drawer.tsx';
import { eventsPath } from './event-paths.ts';

export function RecentEventsPanel({ clusterId, queueName }: PanelSlotProps['queue.detail.panels']) {
  const trpc = useTRPC();
  const list = useListState({ sort: '-seq', pageSize: 10, prefix: 'events' });
  const query = useQuery({
    ...trpc.events.list.queryOptions({
      clusterId,
      queue: queueName,
      sort: list.state.sort,
      page: list.state.page,
      pageSize: list.state.pageSize,
      ...(list.state.q ? { q: list.state.q } : {}),
    }),
    ...useLive(['events']),
    placeholderData: keepPreviousData,
  });
  const [opened, setOpened] = useState<EventRow | undefined>();
  const columns = eventColumns(clusterId, setOpened).filter((column) => column.id !== 'queue');
  return (
    <Paper withBorder p="md" radius="md" aria-label="Recent events" data-testid="queue-recent-events">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>Recent events</Text>
          <Anchor component={Link} href={`${eventsPath(clusterId)}?queue=${encodeURIComponent(queueName)}`} size="sm">
            All events of this queue
          </Anchor>
        </Group>
        <DataTable
          tableId="queue-events"
          label="Recent events"
          columns={columns}
          rowKey={(row) => String(row.seq)}
          rowAttributes={(row) => ({ 'data-kind': row.kind })}
          list={list}
          query={query}
          searchPlaceholder="Search events"
          empty={{ title: 'No events for this queue yet', description: 'Consumers attaching and leaving show here.' }}
        />
      </Stack>
      <EventDrawer event={opened} onClose={() => setOpened(undefined)} />
    </Paper>
  );
}
