'use client';
// The findings: detections in fields no rule covers, most recent first, each with "make a rule", which adds the
// suggested rule to the draft.
import { Button, Code } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import type { DraftRule } from './policy-draft.ts';

type Finding = RouterOutputs['governance']['findings']['items'][number];

export function FindingsPanel({
  onMakeRule,
  ruleIds,
}: {
  onMakeRule: (rule: DraftRule) => void;
  ruleIds: ReadonlySet<string>;
}) {
  const trpc = useTRPC();
  const list = useListState({ sort: '-lastSeenAt', prefix: 'findings', pageSize: 10 });
  const query = useQuery({
    ...trpc.governance.findings.queryOptions({ ...listInput(list.state), sort: list.state.sort }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  const columns: Column<Finding>[] = [
    { id: 'location', header: 'Where', sortField: 'location', cell: (row) => <Code>{row.location}</Code> },
    { id: 'address', header: 'Address', sortField: 'address', cell: (row) => row.address || '—' },
    { id: 'detector', header: 'Found', cell: (row) => `${row.detector} (${row.dataClass})` },
    { id: 'count', header: 'Times', sortField: 'count', align: 'right', cell: (row) => row.count.toLocaleString('en') },
    { id: 'lastSeenAt', header: 'Last seen', sortField: 'lastSeenAt', cell: (row) => <TimeAgo iso={row.lastSeenAt} /> },
    {
      id: 'make',
      header: '',
      width: 130,
      cell: (row) => {
        const rule = row.suggestedRule;
        return rule ? (
          <Button size="compact-xs" variant="light" disabled={ruleIds.has(rule.id)} onClick={() => onMakeRule(rule)}>
            {ruleIds.has(rule.id) ? 'In the draft' : 'Make a rule'}
          </Button>
        ) : null;
      },
    },
  ];
  return (
    <DataTable
      tableId="governance-findings"
      label="Findings"
      columns={columns}
      rowKey={(row) => `${row.address}|${row.location}|${row.detector}`}
      list={list}
      query={query}
      searchPlaceholder="Search location, address, detector"
      empty={{
        title: 'No findings',
        description: 'Detections in fields no rule covers appear here as content is governed.',
      }}
    />
  );
}
