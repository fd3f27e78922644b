'use client';
// Admin → Access → Users: every user, local and external, with create, change and delete in a dialog.
import { Button, Modal } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { userColumns, type UserRow } from './user-columns.tsx';
import { CreateUserForm, EditUserForm } from './user-forms.tsx';

type UsersInput = RouterInputs['security']['users']['list'];
type Dialog = { kind: 'create' } | { kind: 'edit'; user: UserRow } | undefined;

export function UsersScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'username' });
  const input = { ...listInput(list.state), sort: list.state.sort as UsersInput['sort'] };
  const query = useQuery({ ...trpc.security.users.list.queryOptions(input), placeholderData: keepPreviousData });
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const columns = useMemo(() => userColumns((user) => setDialog({ kind: 'edit', user })), []);
  const close = () => setDialog(undefined);
  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in: local accounts made here and accounts an identity provider brought. What they may do comes from their grants."
        actions={<Button onClick={() => setDialog({ kind: 'create' })}>New user</Button>}
      />
      <DataTable
        tableId="users"
        label="Users"
        columns={columns}
        rowKey={(user) => user.id}
        list={list}
        query={query}
        searchPlaceholder="Search username, name, email"
        empty={{ title: 'No users', description: 'Create one with “New user”.' }}
      />
      <Modal
        opened={dialog !== undefined}
        onClose={close}
        title={dialog?.kind === 'edit' ? `User ${dialog.user.username}` : 'New user'}
      >
        {dialog?.kind === 'create' && <CreateUserForm onDone={close} />}
        {dialog?.kind === 'edit' && <EditUserForm key={dialog.user.id} user={dialog.user} onDone={close} />}
      </Modal>
    </>
  );
}
