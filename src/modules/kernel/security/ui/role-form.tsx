'use client';
// One form for a new custom role and for changing one; a built-in role shows read-only. Deleting a custom role
// is a press-and-hold; the server refuses while grants use it and says how many.
import { Alert, Button, Divider, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { fieldErrors, FormProblem } from './form-problem.tsx';
import { PermissionPicker } from './permission-picker.tsx';
import type { RoleRow } from './role-columns.tsx';

function useRolesChanged(onDone: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries(trpc.security.roles.pathFilter());
    onDone();
  };
}

function DeleteRole({ role, onDone }: { role: RoleRow; onDone: () => void }) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.security.roles.delete.mutationOptions({ onSuccess: useRolesChanged(onDone) }));
  return (
    <Stack gap="xs">
      <HoldToConfirm
        action="Delete"
        count={1}
        noun={['role', 'roles']}
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ id: role.id })}
      />
      <FormProblem error={remove.error} fields={[]} />
    </Stack>
  );
}

export function RoleForm({ role, onDone }: { role?: RoleRow; onDone: () => void }) {
  const trpc = useTRPC();
  const changed = useRolesChanged(onDone);
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
  const create = useMutation(trpc.security.roles.create.mutationOptions({ onSuccess: changed }));
  const update = useMutation(trpc.security.roles.update.mutationOptions({ onSuccess: changed }));
  const mutation = role ? update : create;
  const errorOf = fieldErrors(mutation.error);
  const readOnly = role?.builtIn ?? false;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (role) update.mutate({ id: role.id, name, description, permissions });
    else create.mutate({ name, description, permissions });
  };
  return (
    <Stack gap="md">
      {readOnly && (
        <Alert color="gray" variant="light" title="Built-in role">
          Built-in roles follow the permission catalogue and cannot be changed. Create a custom role for another set.
        </Alert>
      )}
      <form onSubmit={submit} aria-label={role ? 'Change role' : 'Create role'}>
        <Stack gap="sm">
          <TextInput
            label="Name"
            required
            readOnly={readOnly}
            value={name}
            error={errorOf('name')}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Textarea
            label="Description"
            readOnly={readOnly}
            autosize
            minRows={2}
            value={description}
            error={errorOf('description')}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <PermissionPicker
            value={permissions}
            onChange={setPermissions}
            readOnly={readOnly}
            error={errorOf('permissions')}
          />
          <FormProblem error={mutation.error} fields={['name', 'description', 'permissions']} />
          {!readOnly && (
            <Button type="submit" loading={mutation.isPending}>
              {role ? 'Save changes' : 'Create role'}
            </Button>
          )}
        </Stack>
      </form>
      {role && !readOnly && (
        <>
          <Divider label="Delete" labelPosition="left" />
          <DeleteRole role={role} onDone={onDone} />
        </>
      )}
    </Stack>
  );
}
