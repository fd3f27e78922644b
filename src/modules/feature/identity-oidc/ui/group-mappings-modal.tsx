'use client';
// One provider's group → role mappings and default role, edited as a whole and saved with one PUT (which
// replaces the set). Field problems from the server show beside the row they name.
import { ActionIcon, Button, Group, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { toBody, toDrafts, type MappingDraft, type ScopeKind } from './mapping-draft.ts';

const SCOPES: { value: ScopeKind; label: string }[] = [
  { value: 'GLOBAL', label: 'Everywhere' },
  { value: 'ENVIRONMENT', label: 'Environment' },
  { value: 'CLUSTER', label: 'Cluster' },
];

interface Provider {
  readonly id: string;
  readonly label: string;
}

interface MappingSet {
  readonly defaultRoleId: string | null;
  readonly mappings: Parameters<typeof toDrafts>[0];
}

export function GroupMappingsModal({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const trpc = useTRPC();
  const current = useQuery(trpc.identity.get.queryOptions({ providerId: provider.id }));
  return (
    <Modal opened onClose={onClose} title={`Group mappings: ${provider.label}`} size="xl">
      {current.isError && <ProblemView error={current.error} />}
      {current.isPending && <Loader size="sm" />}
      {/* The form starts from what is stored now; a save replaces it as a whole. */}
      {current.data && <MappingsForm provider={provider} stored={current.data} onClose={onClose} />}
    </Modal>
  );
}

function MappingsForm({ provider, stored, onClose }: { provider: Provider; stored: MappingSet; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const roles = useQuery(trpc.identity.roleChoices.queryOptions());
  const [defaultRoleId, setDefaultRoleId] = useState<string | null>(stored.defaultRoleId);
  const [drafts, setDrafts] = useState<MappingDraft[]>(() => toDrafts(stored.mappings));
  const save = useMutation(
    trpc.identity.put.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.identity.get.pathFilter());
        onClose();
      },
    }),
  );
  const roleOptions = (roles.data ?? []).map((role) => ({ value: role.id, label: role.name }));
  const fieldError = (field: string) =>
    save.isError ? problemOf(save.error).errors?.find((error) => error.field === field)?.message : undefined;
  const change = (key: number, patch: Partial<MappingDraft>) =>
    setDrafts((rows) => rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const nextKey = () => Math.max(-1, ...drafts.map((row) => row.key)) + 1;
  // Rows keep their place in the set (`index`), which is what the server's field errors name, however they are
  // sorted or paged here.
  const list = useLocalListState({ sort: 'order', pageSize: 10 });
  const rows = drafts.map((row, index) => ({ ...row, index }));
  const query = localQuery(rows, list, {
    text: (row) => row.groupName,
    sortValue: (row, field) => (field === 'group' ? row.groupName : field === 'scope' ? row.scopeKind : row.index),
  });
  const columns: readonly Column<MappingDraft & { readonly index: number }>[] = [
    {
      id: 'group',
      header: 'Group',
      sortField: 'group',
      cell: (row) => (
        <TextInput
          aria-label={`Group of mapping ${row.index + 1}`}
          value={row.groupName}
          onChange={(event) => change(row.key, { groupName: event.currentTarget.value })}
          error={fieldError(`mappings.${row.index}.groupName`)}
        />
      ),
    },
    {
      id: 'role',
      header: 'Role',
      cell: (row) => (
        <Select
          aria-label={`Role of mapping ${row.index + 1}`}
          data={roleOptions}
          value={row.roleId || null}
          onChange={(value) => change(row.key, { roleId: value ?? '' })}
          error={fieldError(`mappings.${row.index}.roleId`)}
        />
      ),
    },
    {
      id: 'scope',
      header: 'Scope',
      sortField: 'scope',
      cell: (row) => (
        <Select
          aria-label={`Scope of mapping ${row.index + 1}`}
          data={SCOPES}
          allowDeselect={false}
          value={row.scopeKind}
          onChange={(value) => change(row.key, { scopeKind: value ?? 'GLOBAL' })}
        />
      ),
    },
    {
      id: 'scopeId',
      header: 'Environment or cluster id',
      cell: (row) => (
        <TextInput
          aria-label={`Scope id of mapping ${row.index + 1}`}
          disabled={row.scopeKind === 'GLOBAL'}
          value={row.scopeKind === 'GLOBAL' ? '' : row.scopeId}
          onChange={(event) => change(row.key, { scopeId: event.currentTarget.value })}
          error={fieldError(`mappings.${row.index}.scope.id`)}
        />
      ),
    },
    {
      id: 'remove',
      header: '',
      width: 48,
      cell: (row) => (
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove mapping ${row.index + 1}`}
          onClick={() => setDrafts((current) => current.filter((candidate) => candidate.key !== row.key))}
        >
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      ),
    },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Accounts from {provider.label} get the roles of the groups they hold, at each mapping&apos;s scope, plus the
        default role everywhere. Changes apply at each user&apos;s next sign-in.
      </Text>
      <Select
        label="Default role"
        description="Every account from this provider holds it, whatever its groups"
        placeholder="None"
        clearable
        data={roleOptions}
        value={defaultRoleId}
        onChange={setDefaultRoleId}
        error={fieldError('defaultRoleId')}
        w={300}
      />
      <div data-testid="group-mappings">
        <DataTable
          tableId="group-mappings"
          label="Group mappings"
          columns={columns}
          rowKey={(row) => String(row.key)}
          list={list}
          query={query}
          searchPlaceholder="Search groups"
          empty={{
            title: 'No mappings',
            description: 'Accounts from this provider hold only the default role. Add a mapping to give groups roles.',
          }}
          minWidth={640}
        />
      </div>
      {save.isError && <ProblemView error={save.error} />}
      <Group justify="space-between">
        <Button
          variant="light"
          onClick={() =>
            setDrafts((rows) => [
              ...rows,
              { key: nextKey(), groupName: '', roleId: '', scopeKind: 'GLOBAL', scopeId: '' },
            ])
          }
        >
          Add mapping
        </Button>
        <Group>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={save.isPending}
            onClick={() => save.mutate({ providerId: provider.id, defaultRoleId, mappings: toBody(drafts) })}
          >
            Save mappings
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
