'use client';
// An alert's transition history in the drawer: what or who changed it, to which state, when. Live on the `alerts`
// signal (polling while the stream is down).
import { Badge, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { DrawerHeading } from './drawer-heading.tsx';
import { transitionSearch } from './drawer-lists.ts';

type Transition = RouterOutputs['alerting']['transitions']['items'][number];

const TRANSITION_COLOR: Record<string, string> = {
  pending: 'yellow',
  firing: 'red',
  reopened: 'red',
  resolved: 'teal',
  dropped: 'gray',
  acknowledged: 'blue',
  silenced: 'grape',
  unsilenced: 'grape',
};

const TRANSITION_COLUMNS: readonly Column<Transition>[] = [
  { id: 'at', header: 'When', width: 120, sortField: 'seq', cell: (row) => <TimeAgo iso={row.at} /> },
  {
    id: 'transition',
    header: 'Transition',
    width: 120,
    sortField: 'transition',
    cell: (row) => (
      <Badge color={TRANSITION_COLOR[row.transition] ?? 'gray'} variant="light" size="sm">
        {row.transition}
      </Badge>
    ),
  },
  { id: 'state', header: 'State after', width: 100, cell: (row) => row.state },
  { id: 'actor', header: 'By', sortField: 'actor', cell: (row) => row.actor },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    width: 90,
    cell: (row) => (row.value === null ? '—' : row.value.toLocaleString('en')),
  },
];

export function TransitionHistory({ alertId }: { alertId: string }) {
  const trpc = useTRPC();
  const transitions = useQuery({ ...trpc.alerting.transitions.queryOptions({ id: alertId }), ...useLive(['alerts']) });
  const list = useLocalListState({ sort: 'seq', pageSize: 10 });
  const query = localQuery(transitions.data?.items, list, transitionSearch, transitions);
  return (
    <Stack gap="xs" data-testid="alert-transitions">
      <DrawerHeading>Transitions</DrawerHeading>
      <DataTable
        tableId="alert-transitions"
        label="Transitions"
        columns={TRANSITION_COLUMNS}
        rowKey={(row) => row.seq}
        rowAttributes={(row) => ({ 'data-transition': row.transition, 'data-actor': row.actor })}
        list={list}
        query={query}
        minWidth={480}
        searchPlaceholder="Search transition or who"
        empty={{ title: 'No transitions kept', description: 'Transitions older than the retention are deleted.' }}
      />
    </Stack>
  );
}
