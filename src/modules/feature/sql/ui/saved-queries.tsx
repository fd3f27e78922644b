'use client';
// Saved queries, in a side panel: save the editor's query under a name (shared: every user sees it, with your name),
// open one (it runs, as a link would), delete your own. Queries others shared are marked with their owner.
import { Badge, Button, Checkbox, Drawer, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconBookmark, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useLocalListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import type { SqlSource } from './sql-paths.ts';

type SavedQuery = RouterOutputs['sql']['savedQueries']['list']['items'][number];

function DeleteButton({ query }: { query: SavedQuery }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState(false);
  const remove = useMutation({
    ...trpc.sql.savedQueries.remove.mutationOptions(),
    onSuccess: () => queryClient.invalidateQueries(trpc.sql.savedQueries.pathFilter()),
  });
  if (!query.mine) return null;
  return asked ? (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-xs"
        color="red"
        loading={remove.isPending}
        onClick={() => remove.mutate({ id: query.id, dryRun: false })}
      >
        Delete “{query.name}”
      </Button>
      <Button size="compact-xs" variant="subtle" onClick={() => setAsked(false)}>
        Keep
      </Button>
    </Group>
  ) : (
    <Button
      size="compact-xs"
      variant="subtle"
      color="red"
      leftSection={<IconTrash size={12} />}
      aria-label={`Delete ${query.name}`}
      onClick={() => setAsked(true)}
    >
      Delete
    </Button>
  );
}

function columns(onOpen: (query: SavedQuery) => void): Column<SavedQuery>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      sortField: 'name',
      cell: (query) => (
        <UnstyledButton onClick={() => onOpen(query)} aria-label={`Open ${query.name}`}>
          <Text size="sm" fw={500} c="blue">
            {query.name}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1} ff="monospace">
            {query.sql}
          </Text>
        </UnstyledButton>
      ),
    },
    { id: 'source', header: 'Source', cell: (query) => query.source },
    {
      id: 'owner',
      header: 'Owner',
      cell: (query) =>
        query.mine ? (
          <Group gap={4}>
            <Text size="sm">you</Text>
            {query.shared && (
              <Badge size="xs" variant="light">
                shared
              </Badge>
            )}
          </Group>
        ) : (
          <Badge size="sm" variant="light" color="grape" data-testid="saved-query-owner">
            shared by {query.ownerName}
          </Badge>
        ),
    },
    { id: 'updatedAt', header: 'Saved', sortField: 'updatedAt', cell: (query) => <TimeAgo iso={query.updatedAt} /> },
    { id: 'actions', header: '', cell: (query) => <DeleteButton query={query} /> },
  ];
}

function SaveForm({ current, mine }: { current: { sql: string; source: SqlSource }; mine: readonly SavedQuery[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const save = useMutation({
    ...trpc.sql.savedQueries.save.mutationOptions(),
    onSuccess: () => queryClient.invalidateQueries(trpc.sql.savedQueries.pathFilter()),
  });
  // Saving under a name of yours replaces that query.
  const replaces = mine.find((query) => query.name === name.trim());
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Save the editor’s query as"
          placeholder="Order 7731 across the fleet"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button
          leftSection={<IconDeviceFloppy size={16} />}
          disabled={!name.trim() || !current.sql}
          loading={save.isPending}
          onClick={() =>
            save.mutate({
              ...(replaces ? { id: replaces.id } : {}),
              name: name.trim(),
              sql: current.sql,
              source: current.source,
              shared,
              dryRun: false,
            })
          }
        >
          {replaces ? 'Replace' : 'Save'}
        </Button>
      </Group>
      <Checkbox
        label="Shared: every user of the console sees it, with your name"
        checked={shared}
        onChange={(event) => setShared(event.currentTarget.checked)}
      />
      {save.isSuccess && (
        <Text size="sm" c="teal" data-testid="saved-query-saved">
          Saved “{save.variables.name}”.
        </Text>
      )}
      {save.isError && <ProblemView error={save.error} />}
    </Stack>
  );
}

export function SavedQueriesButton({
  current,
  onOpen,
}: {
  current: { sql: string; source: SqlSource };
  onOpen: (query: { sql: string; source: SqlSource }) => void;
}) {
  const [opened, setOpened] = useState(false);
  const trpc = useTRPC();
  const list = useLocalListState({ sort: 'name', pageSize: 10 });
  const saved = useQuery({
    ...trpc.sql.savedQueries.list.queryOptions(listInput(list.state)),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const open = (query: SavedQuery) => {
    setOpened(false);
    onOpen({ sql: query.sql, source: query.source });
  };
  return (
    <>
      <Button variant="default" leftSection={<IconBookmark size={16} />} onClick={() => setOpened(true)}>
        Saved queries
      </Button>
      <Drawer opened={opened} onClose={() => setOpened(false)} title="Saved queries" position="right" size="xl">
        <Stack gap="lg">
          <SaveForm current={current} mine={(saved.data?.items ?? []).filter((query) => query.mine)} />
          <DataTable
            tableId="sql-saved-queries"
            label="Saved queries"
            columns={columns(open)}
            rowKey={(query) => query.id}
            list={list}
            query={saved}
            searchPlaceholder="Search saved queries"
            minWidth={520}
            empty={{
              title: 'No saved queries',
              description: 'Save the editor’s query above; shared ones from others appear here too.',
            }}
          />
        </Stack>
      </Drawer>
    </>
  );
}
