import { Badge, Code, Text } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export type AuditRow = RouterOutputs['audit']['list']['items'][number];

const OUTCOME_COLOR: Record<string, string> = {
  SUCCEEDED: 'teal',
  FAILED: 'red',
  PARTIAL: 'orange',
  REFUSED: 'grape',
  DENIED: 'pink',
  PENDING: 'gray',
  INTERRUPTED: 'yellow',
};

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A change recorded with its old and new value (a setting's `{ from, to }`) reads as "old → new". */
export function changeOf(parameters: unknown): { from: string; to: string } | undefined {
  if (typeof parameters !== 'object' || parameters === null) return undefined;
  const { from, to } = parameters as { from?: unknown; to?: unknown };
  if (from === undefined || to === undefined) return undefined;
  return { from: shown(from), to: shown(to) };
}

/** A DENIED row stands for every refusal of its key in its window: "denied ×12" when there were more than one. */
export function outcomeLabel(row: { outcome: string; count: number }): string {
  const label = row.outcome.toLowerCase();
  return row.count > 1 ? `${label} ×${row.count}` : label;
}

export const AUDIT_COLUMNS: readonly Column<AuditRow>[] = [
  {
    id: 'startedAt',
    header: 'When',
    sortField: 'startedAt',
    width: 200,
    cell: (row) => <TimeAgo iso={row.startedAt} />,
  },
  { id: 'actor', header: 'Actor', sortField: 'actor', width: 140, cell: (row) => row.actor },
  { id: 'action', header: 'Action', sortField: 'action', cell: (row) => <Code>{row.action}</Code> },
  { id: 'target', header: 'Target', cell: (row) => row.target ?? '—' },
  {
    id: 'change',
    header: 'Change',
    cell: (row) => {
      const change = changeOf(row.parameters);
      return change ? (
        <Text size="sm" ff="monospace" data-testid="audit-change">
          {change.from} → {change.to}
        </Text>
      ) : null;
    },
  },
  {
    id: 'cluster',
    header: 'Cluster',
    sortField: 'clusterName',
    hiddenByDefault: true,
    cell: (row) => row.clusterName ?? '—',
  },
  {
    id: 'outcome',
    header: 'Outcome',
    sortField: 'outcome',
    width: 140,
    cell: (row) => (
      <Badge variant="light" color={OUTCOME_COLOR[row.outcome] ?? 'gray'} data-testid="audit-outcome">
        {outcomeLabel(row)}
      </Badge>
    ),
  },
  {
    id: 'dryRun',
    header: 'Dry run',
    width: 110,
    cell: (row) =>
      row.dryRun ? (
        <Badge variant="outline" color="gray" style={{ flexShrink: 0 }} miw={80}>
          dry run
        </Badge>
      ) : null,
  },
  {
    id: 'error',
    header: 'Error',
    cell: (row) =>
      row.error ? (
        <Text size="sm" c="red" lineClamp={2}>
          {row.error}
        </Text>
      ) : null,
  },
  { id: 'requestId', header: 'Request id', hiddenByDefault: true, cell: (row) => <Code>{row.requestId}</Code> },
  { id: 'sourceIp', header: 'Source IP', hiddenByDefault: true, cell: (row) => row.sourceIp ?? '—' },
];
