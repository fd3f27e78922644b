'use client';
// Alerts → Rules: every alert rule in the shared table (search, sort and page in the URL), each opening its editor;
// New rule for viewers with alert:write. Live on the `alerts` signal like the alert lists.
import { Anchor, Badge, Button } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { useClusterName } from '@/modules/platform/clusters/ui.ts';
import { AlertingTabs, DataAge, SeverityBadge, Toolbar, useAlertWrite, WriteGate } from './alerting-parts.tsx';

type RuleRow = RouterOutputs['alerting']['listRules']['items'][number];

const scopeOf = (row: RuleRow, clusterName: (id: string) => string) =>
  row.clusterId ? clusterName(row.clusterId) : row.environmentId ? 'an environment' : 'every cluster';

export function RulesScreen() {
  const trpc = useTRPC();
  const access = useAlertWrite();
  const list = useListState({ sort: 'name' });
  const rules = useQuery({
    ...trpc.alerting.listRules.queryOptions({
      sort: list.state.sort,
      page: list.state.page,
      pageSize: list.state.pageSize,
      ...(list.state.q ? { q: list.state.q } : {}),
    }),
    ...useLive(['alerts']),
    placeholderData: keepPreviousData,
  });
  const clusterName = useClusterName();
  const columns: readonly Column<RuleRow>[] = [
    {
      id: 'name',
      header: 'Name',
      sortField: 'name',
      cell: (row) => (
        <Anchor component={Link} href={`/alerts/rules/${row.id}`} size="sm">
          {row.name}
        </Anchor>
      ),
    },
    { id: 'condition', header: 'Condition', cell: (row) => row.condition.kind },
    {
      id: 'severity',
      header: 'Severity',
      width: 100,
      sortField: 'severity',
      cell: (row) => <SeverityBadge severity={row.severity} />,
    },
    { id: 'scope', header: 'Scope', cell: (row) => scopeOf(row, clusterName) },
    { id: 'pattern', header: 'Pattern', cell: (row) => row.pattern ?? '—' },
    { id: 'for', header: 'For', align: 'right', width: 80, cell: (row) => `${row.forSeconds} s` },
    { id: 'channels', header: 'Channels', align: 'right', width: 90, cell: (row) => row.channelIds.length },
    {
      id: 'enabled',
      header: 'Enabled',
      width: 110,
      cell: (row) =>
        row.enabled ? (
          <Badge size="sm" variant="light" color="teal">
            on
          </Badge>
        ) : (
          <Badge size="sm" variant="light" color="gray">
            off
          </Badge>
        ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Alert rules"
        description="What raises an alert: a condition over a scope, held for a while, sent to channels."
        actions={
          access.allowed ? (
            <Button component={Link} href="/alerts/rules/new">
              New rule
            </Button>
          ) : (
            <WriteGate access={access}>
              <Button disabled>New rule</Button>
            </WriteGate>
          )
        }
      />
      <AlertingTabs />
      <Toolbar>
        <DataAge updatedAt={rules.dataUpdatedAt} />
      </Toolbar>
      <DataTable
        tableId="alert-rules"
        label="Alert rules"
        columns={columns}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-built-in': row.builtIn ?? '', 'data-rule': row.name })}
        list={list}
        query={rules}
        searchPlaceholder="Search rules"
        empty={{
          title: 'No alert rules',
          description: 'Every registered cluster gets its built-in rules (node down, split-brain); add your own.',
        }}
      />
    </>
  );
}
