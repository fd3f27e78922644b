'use client';
// Giving a user a role: pick the user (searched on the server), the role, and where it applies. Environment and
// cluster scopes take the id for now; pickers come with the clusters module.
import { Button, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { fieldErrors, FormProblem } from './form-problem.tsx';

type ScopeKind = RouterInputs['security']['grants']['create']['scope']['kind'];

const SCOPES: { value: ScopeKind; label: string }[] = [
  { value: 'GLOBAL', label: 'Everywhere' },
  { value: 'ENVIRONMENT', label: 'One environment' },
  { value: 'CLUSTER', label: 'One cluster' },
];

export function GrantForm({ onDone, userId: presetUser }: { onDone: () => void; userId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [userSearch, setUserSearch] = useState('');
  const [search] = useDebouncedValue(userSearch, 250);
  const [userId, setUserId] = useState<string | null>(presetUser ?? null);
  const [roleId, setRoleId] = useState<string | null>(null);
  const [kind, setKind] = useState<ScopeKind>('GLOBAL');
  const [scopeId, setScopeId] = useState('');
  const users = useQuery({
    ...trpc.security.users.list.queryOptions({ ...(search ? { q: search } : {}), pageSize: 50 }),
    placeholderData: keepPreviousData,
  });
  const roles = useQuery(trpc.security.roles.list.queryOptions({ pageSize: 500 }));
  const create = useMutation(
    trpc.security.grants.create.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.security.grants.pathFilter()),
          queryClient.invalidateQueries(trpc.security.users.pathFilter()),
          queryClient.invalidateQueries(trpc.security.roles.pathFilter()),
        ]);
        onDone();
      },
    }),
  );
  const errorOf = fieldErrors(create.error);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    create.mutate({
      userId: userId ?? '',
      roleId: roleId ?? '',
      scope: kind === 'GLOBAL' ? { kind } : { kind, id: scopeId.trim() },
    });
  };
  return (
    <form onSubmit={submit} aria-label="Create grant">
      <Stack gap="sm">
        <Select
          label="User"
          required
          searchable
          placeholder="Type to search"
          nothingFoundMessage="No such user"
          data={(users.data?.items ?? []).map((user) => ({
            value: user.id,
            label: user.displayName ? `${user.username} (${user.displayName})` : user.username,
          }))}
          value={userId}
          onChange={setUserId}
          searchValue={userSearch}
          onSearchChange={setUserSearch}
          filter={({ options }) => options}
          error={errorOf('userId')}
        />
        <Select
          label="Role"
          required
          data={(roles.data?.items ?? []).map((role) => ({ value: role.id, label: role.name }))}
          value={roleId}
          onChange={setRoleId}
          error={errorOf('roleId')}
        />
        <Select
          label="Where"
          required
          allowDeselect={false}
          data={SCOPES}
          value={kind}
          onChange={(value) => value && setKind(value)}
          error={errorOf('scope.kind')}
        />
        {kind !== 'GLOBAL' && (
          <TextInput
            label={kind === 'CLUSTER' ? 'Cluster id' : 'Environment id'}
            description="A UUID"
            required
            value={scopeId}
            error={errorOf('scope.id')}
            onChange={(event) => setScopeId(event.currentTarget.value)}
          />
        )}
        <FormProblem error={create.error} fields={['userId', 'roleId', 'scope.kind', 'scope.id']} />
        <Button type="submit" loading={create.isPending}>
          Give role
        </Button>
      </Stack>
    </form>
  );
}
