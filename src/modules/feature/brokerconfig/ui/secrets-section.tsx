'use client';
// Bridge credentials: a document names one by `passwordRef`; the vault holds its value, sealed. Listed by name (who
// stored it, when), never by value; stored (added or replaced) and removed here, each audited.
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

type Secret = RouterOutputs['brokerconfig']['secrets']['list']['items'][number];

export function SecretsSection({ clusterId, referenced }: { clusterId: string; referenced: readonly string[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const secrets = useQuery(trpc.brokerconfig.secrets.list.queryOptions({ clusterId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.brokerconfig.secrets.list.queryKey() });
  const put = useMutation(trpc.brokerconfig.secrets.put.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.brokerconfig.secrets.remove.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const list = useLocalListState({ sort: 'name', pageSize: 10 });
  const stored = new Set((secrets.data?.items ?? []).map((item) => item.name));
  const missing = referenced.filter((ref) => !stored.has(ref));
  const columns = useMemo<Column<Secret>[]>(
    () => [
      { id: 'name', header: 'Name', sortField: 'name', cell: (row) => <Text ff="monospace">{row.name}</Text> },
      { id: 'updatedBy', header: 'Stored by', cell: (row) => row.updatedBy, width: 180 },
      { id: 'updatedAt', header: 'Stored', sortField: 'updatedAt', cell: (row) => <TimeAgo iso={row.updatedAt} /> },
      {
        id: 'remove',
        header: 'Remove',
        width: 220,
        cell: (row) => (
          <HoldToConfirm
            action="Remove"
            count={1}
            noun={['credential', 'credentials']}
            onConfirm={() => remove.mutate({ clusterId, name: row.name, dryRun: false })}
          />
        ),
      },
    ],
    [clusterId, remove],
  );
  const failure = put.error ?? remove.error;
  return (
    <PageSection
      title="Bridge credentials"
      description="A bridge names its password by passwordRef; the value lives sealed in the vault and is never shown again. Storing under an existing name replaces it."
    >
      <Stack gap="sm" data-testid="secrets-section">
        {missing.length > 0 && (
          <Alert color="orange" variant="light">
            The document names {missing.join(', ')}, which the vault does not hold: an apply is refused until stored.
          </Alert>
        )}
        <DataTable
          tableId="config-secrets"
          label="Bridge credentials"
          columns={columns}
          rowKey={(row) => row.name}
          list={list}
          query={localQuery(
            secrets.data?.items,
            list,
            {
              text: (row) => row.name,
              sortValue: (row, field) => (field === 'updatedAt' ? row.updatedAt : row.name),
            },
            secrets,
          )}
          minWidth={600}
          empty={{ title: 'No bridge credential stored', description: 'Store one below before a bridge names it.' }}
        />
        <Group align="flex-end">
          <TextInput
            label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            w={220}
            error={problemOf(put.error ?? null).errors?.find((error) => error.field === 'name')?.message}
          />
          <PasswordInput
            label="Password"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            w={220}
            autoComplete="new-password"
          />
          <Button
            variant="light"
            disabled={!name.trim() || !value}
            loading={put.isPending}
            onClick={() =>
              put.mutate(
                { clusterId, name: name.trim(), value, dryRun: false },
                {
                  onSuccess: () => {
                    setName('');
                    setValue('');
                  },
                },
              )
            }
          >
            {stored.has(name.trim()) ? 'Replace' : 'Store'}
          </Button>
        </Group>
        {failure && (
          <Alert color="red" title={problemOf(failure).title}>
            {problemOf(failure).detail}
          </Alert>
        )}
      </Stack>
    </PageSection>
  );
}
