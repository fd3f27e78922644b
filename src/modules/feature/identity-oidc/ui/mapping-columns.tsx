// The group-mappings table's columns: every cell is an input of its row. Rows keep their place in the set
// (`index`), which is what the server's field errors name, however they are sorted or paged here.
import { ActionIcon, Select, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Column } from '@/ui/table/column.ts';
import type { MappingDraft, ScopeKind } from './mapping-draft.ts';

type MappingRow = MappingDraft & { readonly index: number };

const SCOPES: { value: ScopeKind; label: string }[] = [
  { value: 'GLOBAL', label: 'Everywhere' },
  { value: 'ENVIRONMENT', label: 'Environment' },
  { value: 'CLUSTER', label: 'Cluster' },
];

interface MappingEditing {
  readonly roleOptions: readonly { value: string; label: string }[];
  readonly fieldError: (field: string) => string | undefined;
  readonly change: (key: number, patch: Partial<MappingDraft>) => void;
  readonly remove: (key: number) => void;
}

export function mappingColumns({
  roleOptions,
  fieldError,
  change,
  remove,
}: MappingEditing): readonly Column<MappingRow>[] {
  return [
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
          onClick={() => remove(row.key)}
        >
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      ),
    },
  ];
}
