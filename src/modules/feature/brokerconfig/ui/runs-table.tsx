'use client';
// The last apply runs: which revision, by whom (and who approved), how it ended and how far each node got. Search,
// sort and page in the URL under `r.`.
import { Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { OUTCOME_COLORS } from './config-format.ts';

type Run = RouterOutputs['brokerconfig']['runs']['items'][number];

/** Each node of a run's progress with its outcome, as the server stored it (`[{ nodeName, outcome, … }]`). */
function progressText(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node) => {
      const { nodeName, outcome } = (node ?? {}) as { nodeName?: unknown; outcome?: unknown };
      return typeof nodeName === 'string' && typeof outcome === 'string' ? `${nodeName}: ${outcome}` : undefined;
    })
    .filter(Boolean)
    .join(', ');
}

const COLUMNS: readonly Column<Run>[] = [
  {
    id: 'startedAt',
    header: 'Started',
    sortField: 'startedAt',
    width: 130,
    cell: (row) => <TimeAgo iso={row.startedAt} />,
  },
  { id: 'revision', header: 'Revision', sortField: 'revision', width: 90, align: 'right', cell: (row) => row.revision },
  {
    id: 'status',
    header: 'Status',
    sortField: 'status',
    width: 130,
    cell: (row) => (
      <Badge color={OUTCOME_COLORS[row.status] ?? 'gray'} variant="light" data-testid="run-status">
        {row.status}
      </Badge>
    ),
  },
  { id: 'actor', header: 'By', width: 140, cell: (row) => row.actor },
  { id: 'approvedBy', header: 'Approved by', width: 140, hiddenByDefault: true, cell: (row) => row.approvedBy ?? '—' },
  {
    id: 'nodes',
    header: 'Nodes',
    cell: (row) => (
      <Text size="sm">
        {progressText(row.progress) || '—'}
        {row.error ? ` — ${row.error}` : ''}
      </Text>
    ),
  },
];

export function RunsTable({
  clusterId,
  live,
}: {
  clusterId: string;
  live: { meta: Record<string, unknown>; refetchInterval: number | false };
}) {
  const trpc = useTRPC();
  const runs = useQuery({ ...trpc.brokerconfig.runs.queryOptions({ clusterId }), ...live });
  const list = useListState({ sort: '-startedAt', prefix: 'r', pageSize: 10 });
  return (
    <DataTable
      tableId="config-runs"
      label="Apply runs"
      columns={COLUMNS}
      rowKey={(row) => row.id}
      rowAttributes={(row) => ({ 'data-status': row.status })}
      rowTone={(row) => (row.status === 'HALTED' ? 'danger' : undefined)}
      list={list}
      query={localQuery(
        runs.data?.items,
        list,
        {
          text: (row) => `${row.status} ${row.actor} ${String(row.revision)}`,
          sortValue: (row, field) =>
            field === 'revision' ? row.revision : field === 'status' ? row.status : row.startedAt,
        },
        runs,
      )}
      empty={{ title: 'No apply yet', description: 'Preview the plan and apply it; each run is listed here.' }}
    />
  );
}
