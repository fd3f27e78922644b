'use client';
// One provider's group → role mappings and default role, edited as a whole and saved with one PUT (which
// replaces the set). Field problems from the server show beside the row they name.
import { ActionIcon, Button, Group, Loader, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
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
      <Table aria-label="Group mappings" data-testid="group-mappings">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Group</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Scope</Table.Th>
            <Table.Th>Environment or cluster id</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {drafts.map((row, index) => (
            <Table.Tr key={row.key}>
              <Table.Td>
                <TextInput
                  aria-label={`Group of mapping ${index + 1}`}
                  value={row.groupName}
                  onChange={(event) => change(row.key, { groupName: event.currentTarget.value })}
                  error={fieldError(`mappings.${index}.groupName`)}
                />
              </Table.Td>
              <Table.Td>
                <Select
                  aria-label={`Role of mapping ${index + 1}`}
                  data={roleOptions}
                  value={row.roleId || null}
                  onChange={(value) => change(row.key, { roleId: value ?? '' })}
                  error={fieldError(`mappings.${index}.roleId`)}
                />
              </Table.Td>
              <Table.Td>
                <Select
                  aria-label={`Scope of mapping ${index + 1}`}
                  data={SCOPES}
                  allowDeselect={false}
                  value={row.scopeKind}
                  onChange={(value) => change(row.key, { scopeKind: value ?? 'GLOBAL' })}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  aria-label={`Scope id of mapping ${index + 1}`}
                  disabled={row.scopeKind === 'GLOBAL'}
                  value={row.scopeKind === 'GLOBAL' ? '' : row.scopeId}
                  onChange={(event) => change(row.key, { scopeId: event.currentTarget.value })}
                  error={fieldError(`mappings.${index}.scope.id`)}
                />
              </Table.Td>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove mapping ${index + 1}`}
                  onClick={() => setDrafts((rows) => rows.filter((candidate) => candidate.key !== row.key))}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {drafts.length === 0 && (
        <Text size="sm" c="dimmed">
          No mappings: accounts from this provider hold only the default role.
        </Text>
      )}
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
