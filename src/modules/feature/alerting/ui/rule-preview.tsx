'use client';
// The rule editor's live preview: a second after the draft settles the API is asked for a dry run of the rule as it
// stands (nothing saved) and the subjects it would fire on now, in every cluster of its scope, are listed, before
// any for-duration; or why the API refuses it.
import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import type { RuleInput } from './rule-draft.ts';

type Hit = RouterOutputs['alerting']['previewRule']['wouldFire'][number];

const HIT_COLUMNS: readonly Column<Hit>[] = [
  { id: 'cluster', header: 'Cluster', cell: (hit) => hit.cluster },
  { id: 'subject', header: 'Subject', cell: (hit) => hit.subject },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    width: 110,
    cell: (hit) => (hit.value === null ? '—' : hit.value.toLocaleString('en')),
  },
];

/** What the dry run would fire on, in the one table (searched, sorted and paged here: the answer is whole). */
function WouldFireTable({ rows }: { rows: readonly Hit[] }) {
  const list = useLocalListState({ sort: 'subject', pageSize: 10 });
  const query = localQuery(rows, list, {
    text: (hit) => `${hit.cluster} ${hit.subject}`,
    sortValue: (hit, field) => (field === 'value' ? (hit.value ?? 0) : field === 'cluster' ? hit.cluster : hit.subject),
  });
  return (
    <DataTable
      tableId="alert-rule-preview"
      label="Would fire"
      columns={HIT_COLUMNS}
      rowKey={(hit) => `${hit.clusterId}:${hit.subject}`}
      rowAttributes={(hit) => ({ 'data-testid': 'would-fire', 'data-subject': hit.subject })}
      list={list}
      query={query}
      minWidth={320}
      searchPlaceholder="Search subjects"
      empty={{ title: 'Nothing would fire' }}
    />
  );
}

export function RulePreview({ input, missing }: { input?: RuleInput; missing: string[] }) {
  const trpc = useTRPC();
  const [settled] = useDebouncedValue(input ? JSON.stringify(input) : undefined, 800);
  // A read (nothing saved, nothing audited), asked again for each settled draft; not on focus, as drafts do not age.
  const preview = useQuery({
    ...trpc.alerting.previewRule.queryOptions(JSON.parse(settled ?? '{}') as RuleInput),
    enabled: settled !== undefined,
    retry: false,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
  });
  const wouldFire = preview.data?.wouldFire ?? [];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="rule-preview">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4}>Would fire now</Title>
          {preview.isFetching && <Loader size="xs" />}
        </Group>
        {!input ? (
          <Text size="sm" c="dimmed">
            Fill in {missing.join(', ')} to see what this rule would fire on.
          </Text>
        ) : preview.isError ? (
          <ProblemView error={preview.error} />
        ) : preview.data ? (
          <>
            <Text size="sm" data-testid="preview-count" data-count={wouldFire.length}>
              {wouldFire.length === 0
                ? 'Nothing: the condition holds nowhere in its scope right now.'
                : `${wouldFire.length} ${wouldFire.length === 1 ? 'subject' : 'subjects'} right now, before the for-duration (a dry run: nothing is saved).`}
            </Text>
            {wouldFire.length > 0 && <WouldFireTable rows={wouldFire} />}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Judging…
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
