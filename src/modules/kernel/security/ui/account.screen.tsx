'use client';
// Your account: failed sign-ins with your name from unfamiliar addresses (when there were any), who you are signed
// in as and through which provider, what your grants let you do, your password,
// and the sections other modules contribute to `account.sections` (API tokens, later notification preferences).
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { changePasswordPath } from '@/ui/auth/session.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery, type LocalSource } from '@/ui/table/local-query.ts';
import { UnfamiliarSignIns } from './unfamiliar-sign-ins.tsx';

const LOCAL_PROVIDER = 'local';

function Permissions({ permissions }: { permissions: readonly string[] }) {
  if (permissions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        none
      </Text>
    );
  return (
    <Group gap={4}>
      {permissions.map((permission) => (
        <Badge key={permission} size="sm" variant="light" tt="none">
          {permission}
        </Badge>
      ))}
    </Group>
  );
}

type Account = RouterOutputs['security']['account']['me'];

interface GrantRow {
  readonly key: string;
  readonly scope: string;
  readonly scopeId: string | null;
  readonly permissions: readonly string[];
  readonly order: number;
}

const grantColumns: readonly Column<GrantRow>[] = [
  { id: 'scope', header: 'Where', width: 140, sortField: 'scope', cell: (row) => row.scope },
  {
    id: 'scopeId',
    header: 'Environment or cluster',
    cell: (row) =>
      row.scopeId ? (
        <Text span size="xs" ff="monospace" c="dimmed">
          {row.scopeId}
        </Text>
      ) : (
        '—'
      ),
  },
  {
    id: 'permissions',
    header: 'Permissions',
    sortField: 'permissions',
    cell: (row) => <Permissions permissions={row.permissions} />,
  },
];

/** Everywhere first, then each environment or cluster grant: what you may do, in the one table. */
function GrantsTable({ account, source }: { account: Account | undefined; source: LocalSource }) {
  const list = useListState({ sort: 'order', prefix: 'grants' });
  const rows: GrantRow[] | undefined = account && [
    { key: 'global', scope: 'Everywhere', scopeId: null, permissions: account.globalPermissions, order: 0 },
    ...account.grants
      .filter((grant) => grant.scopeId !== null)
      .map((grant, index) => ({
        key: `${grant.scope}:${grant.scopeId ?? ''}`,
        scope: grant.scope.toLowerCase(),
        scopeId: grant.scopeId,
        permissions: grant.permissions,
        order: index + 1,
      })),
  ];
  const query = localQuery(
    rows,
    list,
    {
      text: (row) => [row.scope, row.scopeId ?? '', ...row.permissions].join(' '),
      sortValue: (row, field) =>
        field === 'scope' ? row.scope : field === 'permissions' ? row.permissions.length : row.order,
    },
    source,
  );
  return (
    <div data-testid="account-permissions">
      <DataTable
        tableId="account-permissions"
        label="What you may do"
        columns={grantColumns}
        rowKey={(row) => row.key}
        list={list}
        query={query}
        searchPlaceholder="Search permissions"
        empty={{ title: 'No grants', description: 'An administrator grants roles under Admin → Access.' }}
      />
    </div>
  );
}

export function AccountScreen() {
  const trpc = useTRPC();
  const me = useQuery(trpc.security.account.me.queryOptions());
  if (me.isError) return <ProblemView error={me.error} onRetry={() => void me.refetch()} />;
  const account = me.data;
  return (
    <>
      <PageHeader title="Your account" description="Who you are signed in as, and what you may do." />
      <Stack gap="lg">
        <UnfamiliarSignIns failures={account?.unfamiliarSignInFailures} />
        <PageSection title="Profile">
          <Table variant="vertical" maw={560} data-testid="account-profile">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>Username</Table.Th>
                <Table.Td>{account?.username}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Signed in with</Table.Th>
                <Table.Td>{account?.provider}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Audited as</Table.Th>
                <Table.Td>
                  <Text span size="sm" ff="monospace">
                    {account?.actor}
                  </Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </PageSection>
        <PageSection
          title="What you may do"
          description="Everywhere, then per environment or cluster; an administrator changes grants under Admin → Access."
        >
          <GrantsTable account={account} source={{ isPending: me.isPending, refetch: () => void me.refetch() }} />
        </PageSection>
        {account?.provider === LOCAL_PROVIDER && (
          <PageSection title="Password">
            <Anchor component={Link} href={changePasswordPath('/account')} size="sm">
              Change your password
            </Anchor>
          </PageSection>
        )}
        <Slot id="account.sections" props={{}} />
      </Stack>
    </>
  );
}
