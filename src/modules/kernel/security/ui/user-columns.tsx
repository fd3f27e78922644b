import { Anchor, Badge, Button, Group } from '@mantine/core';
import Link from 'next/link';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { ACCESS_PATHS } from './contributions.ts';
import { UserName } from './user-name.tsx';

export type UserRow = RouterOutputs['security']['users']['list']['items'][number];

export function userColumns(onEdit: (row: UserRow) => void): readonly Column<UserRow>[] {
  return [
    {
      id: 'username',
      header: 'User',
      sortField: 'username',
      cell: (row) => <UserName username={row.username} displayName={row.displayName} />,
    },
    { id: 'email', header: 'Email', sortField: 'email', cell: (row) => row.email ?? '—' },
    {
      id: 'provider',
      header: 'Signs in with',
      sortField: 'providerId',
      width: 150,
      cell: (row) => (
        <Badge variant="light" color={row.external ? 'grape' : 'gray'}>
          {row.providerId}
        </Badge>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      width: 220,
      cell: (row) => (
        <Group gap={4}>
          {row.disabled ? (
            <Badge color="red" variant="light">
              disabled
            </Badge>
          ) : (
            <Badge color="teal" variant="light">
              active
            </Badge>
          )}
          {row.mustChangePassword && (
            <Badge color="orange" variant="outline">
              new password due
            </Badge>
          )}
        </Group>
      ),
    },
    {
      id: 'grants',
      header: 'Grants',
      width: 90,
      cell: (row) => (
        <Anchor component={Link} href={`${ACCESS_PATHS.grants}?userId=${row.id}`} size="sm">
          {row.grantCount}
        </Anchor>
      ),
    },
    {
      id: 'lastSignIn',
      header: 'Last sign-in',
      sortField: 'lastSignInAt',
      width: 160,
      cell: (row) => <TimeAgo iso={row.lastSignInAt} empty="never" />,
    },
    {
      id: 'created',
      header: 'Created',
      sortField: 'createdAt',
      width: 160,
      hiddenByDefault: true,
      cell: (row) => <TimeAgo iso={row.createdAt} />,
    },
    {
      id: 'actions',
      header: 'Change',
      width: 100,
      cell: (row) => (
        <Button size="xs" variant="light" onClick={() => onEdit(row)} aria-label={`Edit ${row.username}`}>
          Edit
        </Button>
      ),
    },
  ];
}
