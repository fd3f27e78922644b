import { Badge, Code, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { UserName } from './user-name.tsx';

export type GrantRow = RouterOutputs['security']['grants']['list']['items'][number];

const SCOPE_COLOR = { GLOBAL: 'blue', ENVIRONMENT: 'teal', CLUSTER: 'grape' } as const;

/** The table's columns; `actions` renders the row's own remove control. */
export function grantColumns(actions: (row: GrantRow) => ReactNode): readonly Column<GrantRow>[] {
  return [
    {
      id: 'user',
      header: 'User',
      sortField: 'username',
      cell: (row) => <UserName username={row.username} displayName={row.userDisplayName} />,
    },
    { id: 'role', header: 'Role', sortField: 'roleName', width: 160, cell: (row) => row.roleName },
    {
      id: 'scope',
      header: 'Where',
      sortField: 'scopeKind',
      cell: (row) => (
        <Group gap={6} wrap="nowrap">
          <Badge variant="light" color={SCOPE_COLOR[row.scope.kind]}>
            {row.scope.kind === 'GLOBAL' ? 'everywhere' : row.scope.kind.toLowerCase()}
          </Badge>
          {row.scope.id && <Code>{row.scope.id}</Code>}
        </Group>
      ),
    },
    {
      id: 'created',
      header: 'Given',
      sortField: 'createdAt',
      width: 150,
      cell: (row) => <TimeAgo iso={row.createdAt} />,
    },
    { id: 'createdBy', header: 'By', width: 120, hiddenByDefault: true, cell: (row) => row.createdBy ?? '—' },
    { id: 'actions', header: 'Remove', width: 220, cell: actions },
  ];
}
