'use client';
// Picks another queue of the cluster from the grid, searched by name: the target of a move (the messages module's
// Move of one message uses it too, through the queues module's ui.ts).
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';

export function TargetQueuePicker({
  clusterId,
  queueName,
  value,
  onChange,
}: {
  clusterId: string;
  queueName: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const trpc = useTRPC();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const queues = useQuery({
    ...trpc.queues.list.queryOptions({
      clusterId,
      sort: 'queueName',
      page: 1,
      pageSize: 50,
      ...(q && q !== value ? { q } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const names = (queues.data?.items ?? []).map((row) => row.queueName).filter((name) => name !== queueName);
  const data = value && !names.includes(value) ? [value, ...names] : names;
  return (
    <Select
      label="Target queue"
      placeholder="Search the cluster's queues"
      description="The messages go to this queue; it must exist in the cluster."
      data={data}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={queues.isFetching ? 'Searching…' : 'No other queue matches'}
      clearable
      required
    />
  );
}
