'use client';
// A node's addresses under memory pressure: the paging ones (messages kept on disk beyond max-size) and the full
// ones (blocking, failing or dropping by their address-full policy), in the shared table.
import { useMemo } from 'react';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { pageLocally, useListState } from '@/ui/table/list-state.ts';
import type { NodeFactsEntry } from './node-facts-view.tsx';
import { useWritesOff } from '@/modules/platform/clusters/ui.ts';

interface Pressured {
  readonly key: string;
  readonly name: string;
  readonly state: string;
  readonly limitPercent: number;
  readonly pages: number | null;
}

export function PressuredAddresses({
  clusterId,
  node,
}: {
  clusterId: string;
  node: Extract<NodeFactsEntry, { ok: true }>;
}) {
  const writesOff = useWritesOff(clusterId);
  const list = useListState({ sort: 'name', prefix: 'pressured', pageSize: 10 });
  const rows = useMemo<Pressured[]>(
    () => [
      ...node.pagingAddresses.map((address) => ({
        key: `paging/${address.name}`,
        name: address.name,
        state: 'paging',
        limitPercent: address.limitPercent,
        pages: address.pages,
      })),
      ...node.fullAddresses.map((address) => ({
        key: `full/${address.name}`,
        name: address.name,
        state: `full (${address.policy ?? 'policy unknown'})`,
        limitPercent: address.limitPercent,
        pages: null,
      })),
    ],
    [node],
  );
  const columns: Column<Pressured>[] = [
    {
      id: 'name',
      header: 'Address',
      sortField: 'name',
      cell: (row) => (
        <EntityLink kind="address" target={{ clusterId, key: row.name, row }}>
          {row.name}
        </EntityLink>
      ),
    },
    { id: 'state', header: 'State', sortField: 'state', cell: (row) => row.state },
    {
      id: 'limitPercent',
      header: 'Of max-size',
      sortField: 'limitPercent',
      align: 'right',
      cell: (row) => `${String(row.limitPercent)}%`,
    },
    { id: 'pages', header: 'Pages', align: 'right', cell: (row) => row.pages ?? '—' },
  ];
  const page = pageLocally(rows, list.state, {
    text: (row) => row.name,
    sortValue: (row, field) => (field === 'limitPercent' ? row.limitPercent : field === 'state' ? row.state : row.name),
  });
  return (
    <DataTable
      tableId="pressured-addresses"
      label="Paging and full addresses"
      columns={columns}
      rowKey={(row) => row.key}
      rowAttributes={(row) => ({ 'data-address': row.name })}
      list={list}
      query={{ data: page, error: null, isPending: false, isFetching: false, refetch: () => undefined }}
      searchPlaceholder="Search address"
      empty={{ title: 'No address pages and none is full' }}
      rowMenu={{ kind: 'address', clusterId, writesOff }}
    />
  );
}
