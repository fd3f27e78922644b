'use client';
// Observe → Alerts: the alerts (open by default: pending and firing; firing, history or all by the chips), live on
// the `alerts` signal, and below them the alert rules. Read-only for now: rules, channels, acknowledge and silence
// are in the API (docs/alerting.md).
import { Anchor, Badge, Chip, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

type AlertRow = RouterOutputs['alerting']['list']['items'][number];
type RuleRow = RouterOutputs['alerting']['listRules']['items'][number];
type AlertsInput = RouterInputs['alerting']['list'];

const VIEWS = ['open', 'firing', 'history', 'all'] as const;
type View = (typeof VIEWS)[number];

const SEVERITY_COLOR: Record<string, string> = { critical: 'red', warning: 'orange', info: 'blue' };
const STATE_COLOR: Record<string, string> = { firing: 'red', pending: 'yellow', resolved: 'gray' };

function SeverityBadge({ severity }: { severity: string }) {
  return (
    <Badge color={SEVERITY_COLOR[severity] ?? 'gray'} variant="light" size="sm">
      {severity}
    </Badge>
  );
}

const ALERT_COLUMNS: readonly Column<AlertRow>[] = [
  {
    id: 'state',
    header: 'State',
    width: 110,
    sortField: 'state',
    cell: (row) => (
      <Badge color={STATE_COLOR[row.state] ?? 'gray'} variant="filled" size="sm">
        {row.state}
      </Badge>
    ),
  },
  { id: 'severity', header: 'Severity', width: 110, cell: (row) => <SeverityBadge severity={row.severity} /> },
  { id: 'rule', header: 'Rule', cell: (row) => row.rule },
  { id: 'subject', header: 'Subject', sortField: 'subject', cell: (row) => row.subject },
  {
    id: 'cluster',
    header: 'Cluster',
    width: 120,
    cell: (row) => (
      <Anchor component={Link} href={`/clusters/${row.clusterId}`} size="sm">
        Open
      </Anchor>
    ),
  },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    width: 100,
    cell: (row) => (row.lastValue === null ? '—' : row.lastValue.toLocaleString('en')),
  },
  { id: 'since', header: 'Since', width: 130, sortField: 'since', cell: (row) => <TimeAgo iso={row.since} /> },
  {
    id: 'handled',
    header: 'Handled',
    cell: (row) =>
      row.silencedUntil ? (
        <Text size="sm">Silenced: {row.silenceReason}</Text>
      ) : row.acknowledgedBy ? (
        <Text size="sm">Acknowledged by {row.acknowledgedBy}</Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

const RULE_COLUMNS: readonly Column<RuleRow>[] = [
  { id: 'name', header: 'Name', sortField: 'name', cell: (row) => row.name },
  { id: 'condition', header: 'Condition', cell: (row) => row.condition.kind },
  {
    id: 'severity',
    header: 'Severity',
    width: 110,
    sortField: 'severity',
    cell: (row) => <SeverityBadge severity={row.severity} />,
  },
  { id: 'pattern', header: 'Pattern', cell: (row) => row.pattern ?? '—' },
  { id: 'for', header: 'For', align: 'right', width: 80, cell: (row) => `${row.forSeconds} s` },
  { id: 'channels', header: 'Channels', align: 'right', width: 100, cell: (row) => row.channelIds.length },
  { id: 'enabled', header: 'Enabled', width: 100, cell: (row) => (row.enabled ? 'yes' : 'no') },
];

export function AlertsScreen() {
  const trpc = useTRPC();
  const alerts = useListState({ sort: '-since', filters: ['view'] });
  const view: View = VIEWS.find((candidate) => candidate === alerts.state.filters.view) ?? 'open';
  const input: AlertsInput = {
    view,
    sort: alerts.state.sort,
    page: alerts.state.page,
    pageSize: alerts.state.pageSize,
    ...(alerts.state.q ? { q: alerts.state.q } : {}),
  };
  const live = useLive(['alerts']);
  const alertQuery = useQuery({
    ...trpc.alerting.list.queryOptions(input),
    ...live,
    placeholderData: keepPreviousData,
  });
  const rules = useListState({ sort: 'name', prefix: 'rules' });
  const ruleQuery = useQuery({
    ...trpc.alerting.listRules.queryOptions({
      sort: rules.state.sort,
      page: rules.state.page,
      pageSize: rules.state.pageSize,
      ...(rules.state.q ? { q: rules.state.q } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What the alert rules raise, judged after every scrape sweep of a cluster: pending until a rule's for-duration has held, then firing until its condition stops holding."
      />
      <Stack gap="xl">
        <DataTable
          tableId="alerts"
          label="Alerts"
          columns={ALERT_COLUMNS}
          rowKey={(row) => row.id}
          rowAttributes={(row) => ({ 'data-state': row.state, 'data-severity': row.severity })}
          rowTone={(row) => (row.state === 'firing' ? (row.severity === 'critical' ? 'danger' : 'warning') : undefined)}
          list={alerts}
          query={alertQuery}
          searchPlaceholder="Search subject or rule"
          filters={
            <Chip.Group
              value={view}
              onChange={(value) => alerts.setFilter('view', value === 'open' ? undefined : value)}
            >
              <Group gap={6} aria-label="Which alerts">
                {VIEWS.map((candidate) => (
                  <Chip key={candidate} value={candidate} size="xs" variant="light">
                    {candidate}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          }
          empty={{
            title: view === 'history' ? 'No resolved alerts' : 'Nothing is firing',
            description: 'Alerts appear here when a rule’s condition holds after a scrape sweep.',
          }}
        />
        <Stack gap="xs">
          <Title order={3}>Rules</Title>
          <DataTable
            tableId="alert-rules"
            label="Alert rules"
            columns={RULE_COLUMNS}
            rowKey={(row) => row.id}
            rowAttributes={(row) => ({ 'data-built-in': row.builtIn ?? '' })}
            list={rules}
            query={ruleQuery}
            searchPlaceholder="Search rules"
            empty={{
              title: 'No alert rules',
              description: 'Every registered cluster gets its built-in rules (node down, split-brain).',
            }}
          />
        </Stack>
      </Stack>
    </>
  );
}
