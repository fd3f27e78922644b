'use client';
// Admin → Access → Identity providers: the external providers this installation signs in with (configured in the
// environment, see docs/security.md) and, for each, its group → role mappings and default role.
import { Button, Code } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { GroupMappingsModal } from './group-mappings-modal.tsx';

interface ProviderRow {
  readonly id: string;
  readonly label: string;
  readonly startPath: string;
}

export function IdentityProvidersScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'label' });
  const providers = useQuery(trpc.security.auth.providers.queryOptions());
  const [editing, setEditing] = useState<ProviderRow | undefined>(undefined);
  const columns = useMemo<readonly Column<ProviderRow>[]>(
    () => [
      { id: 'label', header: 'Provider', cell: (row) => row.label },
      { id: 'id', header: 'Id', width: 200, cell: (row) => <Code>{row.id}</Code> },
      { id: 'startPath', header: 'Sign-in path', cell: (row) => <Code>{row.startPath}</Code>, hiddenByDefault: true },
      {
        id: 'mappings',
        header: 'Group mappings',
        width: 220,
        cell: (row) => (
          <Button
            size="xs"
            variant="light"
            onClick={() => setEditing(row)}
            aria-label={`Edit group mappings of ${row.label}`}
          >
            Edit mappings…
          </Button>
        ),
      },
    ],
    [],
  );
  const { q, page, pageSize } = list.state;
  const data = useMemo(() => {
    if (!providers.data) return undefined;
    const needle = q.trim().toLowerCase();
    const rows = providers.data.flatMap((entry) =>
      entry.kind === 'redirect' && `${entry.label} ${entry.id}`.toLowerCase().includes(needle)
        ? [{ id: entry.id, label: entry.label, startPath: entry.startPath ?? '' }]
        : [],
    );
    return { items: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length };
  }, [providers.data, q, page, pageSize]);

  return (
    <>
      <PageHeader
        title="Identity providers"
        description="External OpenID providers people sign in with. Their groups map to roles at every sign-in."
      />
      <DataTable
        tableId="identity-providers"
        label="Identity providers"
        columns={columns}
        rowKey={(row) => row.id}
        list={list}
        query={{ ...providers, data }}
        searchPlaceholder="Search providers"
        empty={{
          title: 'No identity providers',
          description: (
            <>
              Configure them with <Code>FLOTILLA_OIDC_PROVIDERS</Code> and restart Flotilla.
            </>
          ),
        }}
      />
      {editing && <GroupMappingsModal provider={editing} onClose={() => setEditing(undefined)} />}
    </>
  );
}
