'use client';
// History: every revision, newest first, with who saved it, why, from where (an edit, an adoption, a recommendation)
// and what it changed; one opens read-only, and can be restored as a new revision (loaded into the editor, saved
// on top of the current one). Search, sort and page are in the URL under `h.`.
import { Anchor, Badge, Button, Group, List, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useMemo, useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { changeText } from './config-format.ts';
import { documentText } from './document-text.ts';

type Revision = RouterOutputs['brokerconfig']['revisions']['list']['items'][number];

const DocumentEditor = dynamic(() => import('./document-editor.tsx'), {
  ssr: false,
  loading: () => <Skeleton height={240} />,
});

function Changes({ changes }: { changes: Revision['changes'] }) {
  if (changes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        no item changed
      </Text>
    );
  return (
    <Stack gap={2}>
      {changes.map((change) => (
        <Text key={`${change.section}/${change.key}`} size="sm" ff="monospace" data-testid="revision-change">
          {changeText(change)}
        </Text>
      ))}
    </Stack>
  );
}

export function HistoryTab({
  clusterId,
  schema,
  live,
  onRestore,
}: {
  clusterId: string;
  schema: Record<string, unknown> | undefined;
  live: { meta: Record<string, unknown>; refetchInterval: number | false };
  onRestore: (number: number, text: string) => void;
}) {
  const trpc = useTRPC();
  const revisions = useQuery({ ...trpc.brokerconfig.revisions.list.queryOptions({ clusterId }), ...live });
  const list = useListState({ sort: '-number', prefix: 'h' });
  const [opened, setOpened] = useState<number | undefined>(undefined);
  const columns = useMemo<Column<Revision>[]>(
    () => [
      {
        id: 'number',
        header: 'Revision',
        sortField: 'number',
        width: 100,
        cell: (row) => (
          <Anchor component="button" onClick={() => setOpened(row.number)} data-testid="open-revision">
            {row.number}
          </Anchor>
        ),
      },
      { id: 'author', header: 'Author', sortField: 'author', width: 150, cell: (row) => row.author },
      { id: 'comment', header: 'Comment', cell: (row) => row.comment },
      {
        id: 'source',
        header: 'Source',
        sortField: 'source',
        width: 130,
        cell: (row) => (
          <Badge variant="light" color="gray">
            {row.source}
          </Badge>
        ),
      },
      { id: 'changes', header: 'What changed', cell: (row) => <Changes changes={row.changes} /> },
      {
        id: 'createdAt',
        header: 'Saved',
        sortField: 'number',
        width: 130,
        cell: (row) => <TimeAgo iso={row.createdAt} />,
      },
    ],
    [],
  );
  return (
    <>
      <DataTable
        tableId="config-history"
        label="Revisions"
        columns={columns}
        rowKey={(row) => String(row.number)}
        rowAttributes={(row) => ({ 'data-revision': String(row.number), 'data-source': row.source })}
        list={list}
        query={localQuery(
          revisions.data?.items,
          list,
          {
            text: (row) => `${String(row.number)} ${row.author} ${row.comment} ${row.source}`,
            sortValue: (row, field) => (field === 'author' ? row.author : field === 'source' ? row.source : row.number),
          },
          revisions,
        )}
        searchPlaceholder="Search author, comment or source"
        empty={{
          title: 'No revision yet',
          description: 'Save the document, or adopt the live configuration, and its first revision appears here.',
        }}
      />
      {opened !== undefined && (
        <RevisionDialog
          clusterId={clusterId}
          number={opened}
          schema={schema}
          onClose={() => setOpened(undefined)}
          onRestore={(text) => {
            setOpened(undefined);
            onRestore(opened, text);
          }}
        />
      )}
    </>
  );
}

function RevisionDialog({
  clusterId,
  number,
  schema,
  onClose,
  onRestore,
}: {
  clusterId: string;
  number: number;
  schema: Record<string, unknown> | undefined;
  onClose: () => void;
  onRestore: (text: string) => void;
}) {
  const trpc = useTRPC();
  const revision = useQuery(trpc.brokerconfig.revisions.get.queryOptions({ clusterId, number }));
  const text = revision.data ? documentText(revision.data.document) : undefined;
  return (
    <Modal opened onClose={onClose} title={`Revision ${String(number)}`} size="xl">
      <Stack gap="sm" data-testid="revision-dialog">
        {revision.isError && <ProblemView error={revision.error} onRetry={() => void revision.refetch()} />}
        {revision.data && (
          <>
            <Text size="sm">
              {revision.data.author}, <TimeAgo iso={revision.data.createdAt} inline /> ({revision.data.source}):{' '}
              {revision.data.comment}
            </Text>
            <List size="sm" ff="monospace">
              {revision.data.changes.map((change) => (
                <List.Item key={`${change.section}/${change.key}`}>{changeText(change)}</List.Item>
              ))}
            </List>
            <DocumentEditor
              value={text ?? ''}
              schema={schema}
              readOnly
              label={`Revision ${String(number)} (read-only)`}
              testId="revision-document"
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button disabled={!text} onClick={() => text && onRestore(text)}>
            Restore as a new revision
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
