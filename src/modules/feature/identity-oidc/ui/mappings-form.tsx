'use client';
// The group-mappings form: the default role, the mappings as a table of inputs, and Save, which replaces the set.
// Field problems from the server show beside the row they name.
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { mappingColumns } from './mapping-columns.tsx';
import { useMappingsForm, type MappingSet } from './use-mappings-form.ts';

export interface Provider {
  readonly id: string;
  readonly label: string;
}

export function MappingsForm({
  provider,
  stored,
  onClose,
}: {
  provider: Provider;
  stored: MappingSet;
  onClose: () => void;
}) {
  const form = useMappingsForm(provider.id, stored, onClose);
  const list = useLocalListState({ sort: 'order', pageSize: 10 });
  const rows = form.drafts.map((row, index) => ({ ...row, index }));
  const query = localQuery(rows, list, {
    text: (row) => row.groupName,
    sortValue: (row, field) => (field === 'group' ? row.groupName : field === 'scope' ? row.scopeKind : row.index),
  });
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
        data={form.roleOptions}
        value={form.defaultRoleId}
        onChange={form.setDefaultRoleId}
        error={form.fieldError('defaultRoleId')}
        w={300}
      />
      <div data-testid="group-mappings">
        <DataTable
          tableId="group-mappings"
          label="Group mappings"
          columns={mappingColumns(form)}
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
      {form.save.isError && <ProblemView error={form.save.error} />}
      <Group justify="space-between">
        <Button variant="light" onClick={form.add}>
          Add mapping
        </Button>
        <Group>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={form.save.isPending} onClick={form.submit}>
            Save mappings
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
