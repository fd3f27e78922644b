'use client';
// The correlations of one request address that did not complete (or of the one state picked), newest first, live on
// the cluster's `rr` signals. Its search, sort, page and state filter are in the URL under `c.`, beside the page's
// address and window.
import { Group, Select, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { RowMenuSlotId } from '@/ui/slots/slot-ids.ts';
import { useContributions } from '@/ui/slots/slot.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { correlationColumns, correlationKey } from './correlation-columns.tsx';
import { STATES, type RrState } from './rr-format.ts';

const stateOf = (text: string | undefined): RrState | undefined => STATES.find((state) => state === text);

export function CorrelationsTable({ clusterId, address }: { clusterId: string; address: string }) {
  const trpc = useTRPC();
  const list = useListState<'state'>({ sort: '-stateAt', filters: ['state'], prefix: 'c' });
  const state = stateOf(list.state.filters.state);
  const correlations = useQuery({
    ...trpc.rr.correlations.queryOptions({
      // q finds a word of the note or a whole correlation id within this address.
      ...listInput(list.state),
      clusterId,
      address,
      ...(state ? { state } : {}),
    }),
    ...useLive(['rr']),
    placeholderData: keepPreviousData,
  });
  // Typed by the row-menu slots' union: a single slot literal narrows the contribution union to nothing.
  const browse = useContributions<RowMenuSlotId>('queue.actions').find((item) => item.id === 'browse-messages');
  const columns = useMemo(() => correlationColumns(clusterId, browse), [clusterId, browse]);
  return (
    <>
      <Group justify="space-between">
        <Text fw={600}>Correlations</Text>
        <DataAge readAt={correlations.data?.asOf} refreshedWhen="the correlator stores new correlations" />
      </Group>
      <DataTable
        tableId="rr-correlations"
        label="Correlations"
        columns={columns}
        rowKey={correlationKey}
        rowAttributes={(row) => ({ 'data-state': row.state })}
        rowTone={(row) => (row.state === 'COMPLETED' || row.state === 'AWAITING_REPLY' ? undefined : 'warning')}
        list={list}
        query={correlations}
        searchPlaceholder="A correlation id, or a word of the note"
        filters={
          <Select
            label="State"
            placeholder="every state but COMPLETED"
            clearable
            w={260}
            data={[...STATES]}
            value={state ?? null}
            onChange={(value) => list.setFilter('state', value ?? undefined)}
          />
        }
        empty={{
          title: state ? `No ${state} correlation` : 'Every request of this address completed',
          description: 'Correlations are kept as long as broker events (events.retention).',
        }}
      />
    </>
  );
}
