'use client';
// Admin → Access → Grants: roles given to users, everywhere or in one environment or cluster. Filters by user,
// role and scope kind live in the URL (the users and roles screens link here filtered). Group grants are the
// identity providers' group mappings and are managed there.
import { Badge, Button, CloseButton, Modal, Select, Stack } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState, type ListStateApi } from '@/ui/table/list-state.ts';
import { FormProblem } from './form-problem.tsx';
import { grantColumns, type GrantRow } from './grant-columns.tsx';
import { GrantForm } from './grant-form.tsx';

type GrantsInput = RouterInputs['security']['grants']['list'];
const FILTERS = ['userId', 'roleId', 'scopeKind'] as const;
type Filter = (typeof FILTERS)[number];

function RemoveGrant({ row }: { row: GrantRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.security.grants.delete.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.security.grants.pathFilter()),
          queryClient.invalidateQueries(trpc.security.users.pathFilter()),
          queryClient.invalidateQueries(trpc.security.roles.pathFilter()),
        ]),
    }),
  );
  return (
    <Stack gap={4}>
      <HoldToConfirm
        action="Remove"
        count={1}
        noun={['grant', 'grants']}
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ id: row.id })}
      />
      <FormProblem error={remove.error} fields={[]} />
    </Stack>
  );
}

/** A filter the URL holds by id (from a link on the users or roles screen), shown as a removable chip. */
function IdFilter({ list, name, label }: { list: ListStateApi<Filter>; name: 'userId' | 'roleId'; label: string }) {
  if (!list.state.filters[name]) return null;
  return (
    <Badge
      size="lg"
      variant="light"
      rightSection={
        <CloseButton size="xs" aria-label={`Clear ${label} filter`} onClick={() => list.setFilter(name, undefined)} />
      }
    >
      {label}
    </Badge>
  );
}

export function GrantsScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: '-createdAt', filters: FILTERS });
  const { filters } = list.state;
  const input = {
    ...listInput(list.state),
    sort: list.state.sort as GrantsInput['sort'],
    ...(filters.userId ? { userId: filters.userId } : {}),
    ...(filters.roleId ? { roleId: filters.roleId } : {}),
    ...(filters.scopeKind ? { scopeKind: filters.scopeKind as GrantsInput['scopeKind'] } : {}),
  };
  const query = useQuery({ ...trpc.security.grants.list.queryOptions(input), placeholderData: keepPreviousData });
  const [creating, setCreating] = useState(false);
  const columns = useMemo(() => grantColumns((row) => <RemoveGrant row={row} />), []);
  const first = query.data?.items[0];
  return (
    <>
      <PageHeader
        title="Grants"
        description="Who holds which role where. A cluster inherits what its environment and the whole installation grant."
        actions={<Button onClick={() => setCreating(true)}>New grant</Button>}
      />
      <DataTable
        tableId="grants"
        label="Grants"
        columns={columns}
        rowKey={(row) => row.id}
        list={list}
        query={query}
        searchPlaceholder="Search user, role, scope id"
        filters={
          <>
            <Select
              label="Where"
              placeholder="anywhere"
              clearable
              w={170}
              data={[
                { value: 'GLOBAL', label: 'everywhere' },
                { value: 'ENVIRONMENT', label: 'environment' },
                { value: 'CLUSTER', label: 'cluster' },
              ]}
              value={filters.scopeKind ?? null}
              onChange={(value) => list.setFilter('scopeKind', value ?? undefined)}
            />
            <IdFilter
              list={list}
              name="userId"
              label={`User ${first && filters.userId ? first.username : ''}`.trim()}
            />
            <IdFilter
              list={list}
              name="roleId"
              label={`Role ${first && filters.roleId ? first.roleName : ''}`.trim()}
            />
          </>
        }
        empty={{ title: 'No grants', description: 'Give someone a role with “New grant”.' }}
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title="New grant">
        {creating && <GrantForm onDone={() => setCreating(false)} userId={filters.userId} />}
      </Modal>
    </>
  );
}
