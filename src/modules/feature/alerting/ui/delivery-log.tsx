'use client';
// An alert's delivery log in the drawer: one row per channel and event, with the attempt, the status, the last
// answer and the next attempt. Live on the `alerts` signal (polling while the stream is down), and reread every 5 s
// while a delivery is still pending.
import { Badge, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { DrawerHeading } from './drawer-heading.tsx';
import { deliveryRefetchInterval, deliverySearch } from './drawer-lists.ts';

type Delivery = RouterOutputs['alerting']['deliveries']['items'][number];

const DELIVERY_COLOR: Record<string, string> = { delivered: 'teal', pending: 'yellow', failed: 'red' };

function deliveryColumns(channelName: (id: string) => string): readonly Column<Delivery>[] {
  return [
    { id: 'channel', header: 'Channel', sortField: 'channel', cell: (row) => channelName(row.channelId) },
    { id: 'event', header: 'Event', width: 90, sortField: 'event', cell: (row) => row.event },
    { id: 'attempt', header: 'Attempt', align: 'right', width: 80, cell: (row) => row.attempt },
    {
      id: 'status',
      header: 'Status',
      width: 100,
      sortField: 'status',
      cell: (row) => (
        <Badge color={DELIVERY_COLOR[row.status] ?? 'gray'} variant="light" size="sm">
          {row.status}
        </Badge>
      ),
    },
    {
      id: 'response',
      header: 'Response',
      cell: (row) => (
        <Text size="xs" ff="monospace" style={{ wordBreak: 'break-word' }}>
          {row.response ?? '—'}
        </Text>
      ),
    },
    { id: 'at', header: 'At', width: 110, sortField: 'at', cell: (row) => <TimeAgo iso={row.at} /> },
    {
      id: 'nextAttemptAt',
      header: 'Next attempt',
      width: 110,
      cell: (row) => (row.status === 'pending' && row.nextAttemptAt ? <TimeAgo iso={row.nextAttemptAt} /> : '—'),
    },
  ];
}

/** The alert's deliveries, and each channel's name (a deleted channel keeps its id's start). */
function useDeliveries(alertId: string) {
  const trpc = useTRPC();
  const live = useLive(['alerts']);
  const deliveries = useQuery({
    ...trpc.alerting.deliveries.queryOptions({ id: alertId }),
    ...live,
    refetchInterval: (query) => deliveryRefetchInterval(live.refetchInterval, query.state.data?.items),
  });
  const channels = useQuery(trpc.alerting.listChannels.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const names = new Map((channels.data?.items ?? []).map((channel) => [channel.id, channel.name]));
  const channelName = (id: string) => names.get(id) ?? `deleted channel ${id.slice(0, 8)}`;
  return { deliveries, channelName };
}

export function DeliveryLog({ alertId }: { alertId: string }) {
  const { deliveries, channelName } = useDeliveries(alertId);
  const list = useLocalListState({ sort: 'at', pageSize: 10 });
  const query = localQuery(deliveries.data?.items, list, deliverySearch(channelName), deliveries);
  return (
    <Stack gap="xs" data-testid="alert-deliveries">
      <DrawerHeading>Delivery log</DrawerHeading>
      <DataTable
        tableId="alert-deliveries"
        label="Delivery log"
        columns={deliveryColumns(channelName)}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-event': row.event, 'data-status': row.status })}
        rowTone={(row) => (row.status === 'failed' ? 'danger' : undefined)}
        list={list}
        query={query}
        minWidth={640}
        searchPlaceholder="Search channel, event, status or answer"
        empty={{
          title: 'Nothing delivered',
          description:
            'A transition notifies the rule’s channels: this alert’s rule has none, or its transitions so far were silenced or never fired.',
        }}
      />
    </Stack>
  );
}
