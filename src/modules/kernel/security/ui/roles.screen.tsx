'use client';
// Admin → Access → Roles: the built-in roles (read-only) and custom roles made from the permission catalogue.
import { Button, Modal } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { roleColumns, type RoleRow } from './role-columns.tsx';
import { RoleForm } from './role-form.tsx';

type RolesInput = RouterInputs['security']['roles']['list'];
type Dialog = { kind: 'create' } | { kind: 'open'; role: RoleRow } | undefined;

export function RolesScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'name' });
  const input = { ...listInput(list.state), sort: list.state.sort as RolesInput['sort'] };
  const query = useQuery({ ...trpc.security.roles.list.queryOptions(input), placeholderData: keepPreviousData });
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const columns = useMemo(() => roleColumns((role) => setDialog({ kind: 'open', role })), []);
  const close = () => setDialog(undefined);
  return (
    <>
      <PageHeader
        title="Roles"
        description="Named sets of permissions. Grants give a role to a user everywhere or in one environment or cluster."
        actions={<Button onClick={() => setDialog({ kind: 'create' })}>New role</Button>}
      />
      <DataTable
        tableId="roles"
        label="Roles"
        columns={columns}
        rowKey={(role) => role.id}
        list={list}
        query={query}
        searchPlaceholder="Search name, description, permission"
        empty={{ title: 'No roles', description: 'The built-in roles appear after the first start.' }}
      />
      <Modal
        opened={dialog !== undefined}
        onClose={close}
        size="xl"
        title={dialog?.kind === 'open' ? `Role ${dialog.role.name}` : 'New role'}
      >
        {dialog?.kind === 'create' && <RoleForm onDone={close} />}
        {dialog?.kind === 'open' && <RoleForm key={dialog.role.id} role={dialog.role} onDone={close} />}
      </Modal>
    </>
  );
}
