'use client';
// The events list's own filters, kept in the URL beside q/sort/page: kinds, queue, address and a time range.
import { MultiSelect } from '@mantine/core';
import { DateRangeFilter } from '@/ui/parts/date-range-filter.tsx';
import type { ListStateApi } from '@/ui/table/list-state.ts';
import { SearchBox } from '@/ui/table/search-box.tsx';

export const EVENT_FILTERS = ['kind', 'queue', 'address', 'from', 'to'] as const;
export type EventFilter = (typeof EVENT_FILTERS)[number];

const KINDS = [
  'CONSUMER_CREATED',
  'CONSUMER_CLOSED',
  'CONSUMER_SLOW',
  'BINDING_ADDED',
  'BINDING_REMOVED',
  'ADDRESS_ADDED',
  'ADDRESS_REMOVED',
  'SESSION_CREATED',
  'SESSION_CLOSED',
  'CONNECTION_CREATED',
  'CONNECTION_DESTROYED',
  'SECURITY_AUTHENTICATION_VIOLATION',
  'SECURITY_PERMISSION_VIOLATION',
];

export function EventFilters({ list }: { list: ListStateApi<EventFilter> }) {
  const { filters } = list.state;
  return (
    <>
      <MultiSelect
        label="Kinds"
        placeholder={filters.kind ? undefined : 'any'}
        clearable
        searchable
        w={280}
        data={KINDS}
        value={(filters.kind ?? '').split(',').filter(Boolean)}
        onChange={(kinds) => list.setFilter('kind', kinds.join(',') || undefined)}
      />
      <SearchBox
        label="Queue"
        showLabel
        width={160}
        placeholder="any"
        value={filters.queue ?? ''}
        onChange={(value) => list.setFilter('queue', value || undefined)}
      />
      <SearchBox
        label="Address"
        showLabel
        width={160}
        placeholder="any"
        value={filters.address ?? ''}
        onChange={(value) => list.setFilter('address', value || undefined)}
      />
      <DateRangeFilter from={filters.from} to={filters.to} onChange={(bound, iso) => list.setFilter(bound, iso)} />
    </>
  );
}
