'use client';
// Activity → Events of a cluster: every broker notification, newest first, following the stream as a live tail
// (paused on demand, the pause kept in the URL like the filters), with the dropped counter and the retention edge
// said plainly, and every property of an event one click away (the opened event kept in the URL as `?open=<seq>`).
import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { useMemo } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { useOpenedItem } from '@/ui/table/opened-item.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { eventColumns, type EventRow } from './event-columns.tsx';
import { EventDrawer } from './event-drawer.tsx';
import { EVENT_FILTERS, EventFilters } from './event-filters.tsx';

type ListInput = RouterInputs['events']['list'];

export function EventsScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const trpc = useTRPC();
  const list = useListState({ sort: '-seq', filters: [...EVENT_FILTERS, 'paused'] });
  const paused = list.state.filters.paused === 'true';
  const live = useLive(['events']);
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const { filters } = list.state;
  const input: ListInput = {
    ...listInput(list.state),
    sort: list.state.sort,
    clusterId,
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.queue ? { queue: filters.queue } : {}),
    ...(filters.address ? { address: filters.address } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  const query = useQuery({
    ...trpc.events.list.queryOptions(input),
    // Paused: the rows stay as they are until the tail is resumed.
    ...(paused ? { meta: { clusterId: '', topics: [] }, refetchInterval: false as const } : live),
    placeholderData: keepPreviousData,
  });
  // The opened event is in the URL (`?open=<seq>`), so a link to it opens its drawer; read on its own when it is not
  // on the page (an older event, or one the live tail has moved on from).
  const { openedId, open, close } = useOpenedItem();
  const openedSeq = openedId !== undefined && /^\d+$/.test(openedId) ? Number(openedId) : undefined;
  const onPage = query.data?.items.find((row) => row.seq === openedSeq);
  const single = useQuery({
    ...trpc.events.list.queryOptions({ clusterId, seq: openedSeq, pageSize: 1 }),
    enabled: openedSeq !== undefined && !onPage,
  });
  const opened: EventRow | undefined = openedSeq === undefined ? undefined : (onPage ?? single.data?.items[0]);
  const columns = useMemo(() => eventColumns(clusterId, (row) => open(String(row.seq))), [clusterId, open]);
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  const data = query.data;
  return (
    <>
      <PageHeader
        title="Events"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="Every notification the brokers of this cluster sent: consumers, sessions and connections coming and going, bindings, addresses, security refusals."
        actions={
          <Group gap="xs">
            <Badge color={paused ? 'gray' : 'teal'} variant="light" data-testid="tail-state">
              {paused ? 'paused' : 'live tail'}
            </Badge>
            <Button
              size="xs"
              variant="light"
              leftSection={paused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
              onClick={() => {
                list.setFilter('paused', paused ? undefined : 'true');
                // What arrived while paused was not followed: catch up at once.
                if (paused) void query.refetch();
              }}
            >
              {paused ? 'Resume' : 'Pause'}
            </Button>
          </Group>
        }
      />
      {data && data.dropped > 0 && (
        <Alert color="orange" mb="md" data-testid="events-dropped" title={`${data.dropped} notifications dropped`}>
          The worker&apos;s event buffer was full (events.buffer-size); the last was dropped{' '}
          <TimeAgo iso={data.droppedAt} />.
        </Alert>
      )}
      <Text size="sm" c="dimmed" mb="xs" data-testid="events-retention">
        {data?.oldestAt ? (
          <>
            Kept since <TimeAgo iso={data.oldestAt} /> (events.retention trims older ones).
          </>
        ) : (
          'Nothing kept yet.'
        )}
      </Text>
      <DataTable
        tableId="events"
        label="Events"
        columns={columns}
        rowKey={(row) => String(row.seq)}
        rowAttributes={(row) => ({ 'data-kind': row.kind })}
        list={list}
        query={query}
        searchPlaceholder="Search kind, queue, address, ids, user"
        filters={<EventFilters list={list} />}
        empty={{
          title: 'No events yet',
          description: 'Notifications appear as they happen once the worker holds a subscription to a serving node.',
        }}
      />
      <EventDrawer event={opened} onClose={close} />
    </>
  );
}
