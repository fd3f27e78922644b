import type { ReactNode } from 'react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export type TokenRow = RouterOutputs['apitokens']['list']['items'][number];

/** The table's columns; `actions` renders the row's own revoke control. */
export function tokenColumns(actions: (row: TokenRow) => ReactNode): readonly Column<TokenRow>[] {
  return [
    { id: 'name', header: 'Name', sortField: 'name', cell: (row) => row.name },
    {
      id: 'created',
      header: 'Created',
      sortField: 'createdAt',
      width: 180,
      cell: (row) => <TimeAgo iso={row.createdAt} />,
    },
    {
      id: 'expires',
      header: 'Expires',
      sortField: 'expiresAt',
      width: 180,
      cell: (row) => <TimeAgo iso={row.expiresAt} empty="never" />,
    },
    {
      id: 'lastUsed',
      header: 'Last used',
      sortField: 'lastUsedAt',
      width: 180,
      cell: (row) => <TimeAgo iso={row.lastUsedAt} empty="never" />,
    },
    { id: 'actions', header: 'Revoke', width: 220, cell: actions },
  ];
}
