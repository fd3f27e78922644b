import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import Link from 'next/link';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { ACCESS_PATHS } from './contributions.ts';

export type RoleRow = RouterOutputs['security']['roles']['list']['items'][number];

export function roleColumns(onOpen: (row: RoleRow) => void): readonly Column<RoleRow>[] {
  return [
    {
      id: 'name',
      header: 'Role',
      sortField: 'name',
      width: 200,
      cell: (row) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600}>
            {row.name}
          </Text>
          {row.builtIn && (
            <Badge size="xs" variant="light" color="gray">
              built-in
            </Badge>
          )}
        </Group>
      ),
    },
    { id: 'description', header: 'Description', cell: (row) => row.description || '—' },
    { id: 'permissions', header: 'Permissions', width: 120, cell: (row) => row.permissions.length },
    {
      id: 'grants',
      header: 'Grants',
      width: 90,
      cell: (row) => (
        <Anchor component={Link} href={`${ACCESS_PATHS.grants}?roleId=${row.id}`} size="sm">
          {row.grantCount}
        </Anchor>
      ),
    },
    {
      id: 'updated',
      header: 'Changed',
      sortField: 'updatedAt',
      width: 160,
      hiddenByDefault: true,
      cell: (row) => <TimeAgo iso={row.updatedAt} />,
    },
    {
      id: 'actions',
      header: 'Open',
      width: 100,
      cell: (row) => (
        <Button size="xs" variant="light" onClick={() => onOpen(row)} aria-label={`Open role ${row.name}`}>
          {row.builtIn ? 'View' : 'Edit'}
        </Button>
      ),
    },
  ];
}
