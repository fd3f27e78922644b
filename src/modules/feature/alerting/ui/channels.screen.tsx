'use client';
// Alerts → Channels: where alerts are sent. The list shows each channel's kind and only the origin of its target
// (the rest is sealed) and its last delivery; New channel opens the channel dialog (channel-dialog.tsx), each row
// has its actions (channel-actions.tsx).
import { Button } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { AlertingTabs, DataAge, Toolbar, useAlertWrite, WriteGate, type WriteAccess } from './alerting-parts.tsx';
import { ChannelActions } from './channel-actions.tsx';
import { ChannelDialog } from './channel-dialog.tsx';
import type { ChannelRow } from './channel-row.ts';
import { deliveryPollInterval } from './delivery-poll.ts';
import { LastDelivery } from './last-delivery.tsx';

function channelColumns(access: WriteAccess): readonly Column<ChannelRow>[] {
  return [
    { id: 'name', header: 'Name', sortField: 'name', cell: (row) => row.name },
    { id: 'kind', header: 'Kind', width: 100, sortField: 'kind', cell: (row) => row.kind },
    { id: 'target', header: 'Sends to', cell: (row) => row.target },
    { id: 'lastDelivery', header: 'Last delivery', width: 180, cell: (row) => <LastDelivery row={row} /> },
    {
      id: 'createdAt',
      header: 'Created',
      width: 120,
      sortField: 'createdAt',
      cell: (row) => <TimeAgo iso={row.createdAt} />,
    },
    { id: 'actions', header: 'Actions', width: 260, cell: (row) => <ChannelActions channel={row} access={access} /> },
  ];
}

export function ChannelsScreen() {
  const trpc = useTRPC();
  const access = useAlertWrite();
  const list = useListState({ sort: 'name' });
  const [creating, setCreating] = useState(false);
  const live = useLive(['alerts']);
  const channels = useQuery({
    ...trpc.alerting.listChannels.queryOptions({
      sort: list.state.sort,
      page: list.state.page,
      pageSize: list.state.pageSize,
      ...(list.state.q ? { q: list.state.q } : {}),
    }),
    ...live,
    refetchInterval: deliveryPollInterval(live.refetchInterval),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Notification channels"
        description="Where alerts are sent: signed webhooks, Slack-compatible webhooks and the other kinds the API offers. Their targets and secrets are sealed."
        actions={
          <WriteGate access={access}>
            <Button disabled={!access.allowed} onClick={() => setCreating(true)}>
              New channel
            </Button>
          </WriteGate>
        }
      />
      <AlertingTabs />
      <Toolbar>
        <DataAge updatedAt={channels.dataUpdatedAt} alsoEvery="every 10 seconds for deliveries" />
      </Toolbar>
      <DataTable
        tableId="alert-channels"
        label="Notification channels"
        columns={channelColumns(access)}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-channel': row.name, 'data-kind': row.kind })}
        list={list}
        query={channels}
        searchPlaceholder="Search channels"
        empty={{ title: 'No channels', description: 'A rule without channels fires and resolves here only.' }}
      />
      {creating && <ChannelDialog channel={undefined} onClose={() => setCreating(false)} />}
    </>
  );
}
