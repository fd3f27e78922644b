'use client';
// Observe → Alerts: "Firing now" (firing alerts, pending ones too with the chip) and "History" (resolved ones), in
// the shared table with search, sort, paging and the cluster filter in the URL. Live on the `alerts` signal (polling
// while the stream is down), with how old the page is. Open alerts carry Acknowledge, Silence (and Unsilence) for
// viewers with alert:write; without it the buttons are off and say why. A row's subject opens the alert's drawer
// (its facts, delivery log and transitions: alert-drawer.tsx), kept in the URL as `?open=<alert id>`.
import { Anchor, Badge, Chip, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { useOpenedItem } from '@/ui/table/opened-item.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { formatAbsolute } from '@/ui/time/format-time.ts';
import { ClusterPicker, useClusterName } from '@/modules/platform/clusters/ui.ts';
import { AlertActions } from './alert-actions.tsx';
import { AlertDrawer, STATE_COLOR } from './alert-drawer.tsx';
import { AlertingTabs, DataAge, SeverityBadge, Toolbar, useAlertWrite, type WriteAccess } from './alerting-parts.tsx';

type AlertRow = RouterOutputs['alerting']['list']['items'][number];
type AlertsInput = RouterInputs['alerting']['list'];

function Handled({ row }: { row: AlertRow }) {
  const silenced = row.silencedUntil !== null;
  return (
    <Stack gap={0}>
      {silenced && row.silencedUntil && (
        <Text size="xs" data-testid="silenced">
          Silenced until {formatAbsolute(new Date(row.silencedUntil))}: {row.silenceReason}
        </Text>
      )}
      {row.acknowledgedBy && (
        <Text size="xs" data-testid="acknowledged">
          Acknowledged by {row.acknowledgedBy}
        </Text>
      )}
      {!silenced && !row.acknowledgedBy && (
        <Text size="xs" c="dimmed">
          —
        </Text>
      )}
    </Stack>
  );
}

function columnsOf(
  history: boolean,
  clusterName: (id: string) => string,
  access: WriteAccess,
  onOpen: (row: AlertRow) => void,
): readonly Column<AlertRow>[] {
  const columns: (Column<AlertRow> | false)[] = [
    {
      id: 'state',
      header: 'State',
      width: 100,
      sortField: 'state',
      cell: (row) => (
        <Badge color={STATE_COLOR[row.state] ?? 'gray'} variant="filled" size="sm">
          {row.state}
        </Badge>
      ),
    },
    { id: 'severity', header: 'Severity', width: 100, cell: (row) => <SeverityBadge severity={row.severity} /> },
    { id: 'rule', header: 'Rule', cell: (row) => row.rule },
    {
      id: 'subject',
      header: 'Subject',
      sortField: 'subject',
      cell: (row) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => onOpen(row)}
          aria-label={`Open alert ${row.subject}`}
          style={{ wordBreak: 'break-all', textAlign: 'left' }}
        >
          {row.subject}
        </Anchor>
      ),
    },
    {
      id: 'cluster',
      header: 'Cluster',
      cell: (row) => (
        <Anchor component={Link} href={`/clusters/${row.clusterId}`} size="sm">
          {clusterName(row.clusterId)}
        </Anchor>
      ),
    },
    {
      id: 'value',
      header: 'Value',
      align: 'right',
      width: 90,
      cell: (row) => (row.lastValue === null ? '—' : row.lastValue.toLocaleString('en')),
    },
    { id: 'since', header: 'Since', width: 120, sortField: 'since', cell: (row) => <TimeAgo iso={row.since} /> },
    history && {
      id: 'resolvedAt',
      header: 'Resolved',
      width: 120,
      sortField: 'resolvedAt',
      cell: (row) => <TimeAgo iso={row.resolvedAt} />,
    },
    { id: 'handled', header: 'Handled', cell: (row) => <Handled row={row} /> },
    !history && {
      id: 'actions',
      header: 'Actions',
      width: 270,
      cell: (row) => <AlertActions alert={row} access={access} />,
    },
  ];
  return columns.filter((column): column is Column<AlertRow> => column !== false);
}

function AlertList({ history }: { history: boolean }) {
  const trpc = useTRPC();
  const access = useAlertWrite();
  const list = useListState({ sort: history ? '-resolvedAt' : '-since', filters: ['pending', 'cluster'] });
  const withPending = !history && list.state.filters.pending === 'yes';
  const clusterId = list.state.filters.cluster;
  const input: AlertsInput = {
    view: history ? 'history' : withPending ? 'open' : 'firing',
    sort: list.state.sort,
    page: list.state.page,
    pageSize: list.state.pageSize,
    ...(list.state.q ? { q: list.state.q } : {}),
    ...(clusterId ? { clusterId } : {}),
  };
  const alerts = useQuery({
    ...trpc.alerting.list.queryOptions(input),
    ...useLive(['alerts']),
    placeholderData: keepPreviousData,
  });
  const clusterName = useClusterName();
  // The opened alert is in the URL (`?open=<id>`): a notification's link or a shared one opens its drawer. As it is
  // now: from this page while it is on it, else read on its own (a firing alert that resolves leaves Firing now,
  // and the drawer keeps following it).
  const { openedId, open, close } = useOpenedItem();
  const onPage = openedId === undefined ? undefined : alerts.data?.items.find((row) => row.id === openedId);
  const followed = useQuery({
    ...trpc.alerting.list.queryOptions({ view: 'all', id: openedId, pageSize: 1 }),
    ...useLive(['alerts']),
    enabled: openedId !== undefined && !onPage,
  });
  const current = onPage ?? (openedId === undefined ? undefined : followed.data?.items[0]);
  return (
    <>
      <Toolbar>
        <DataAge updatedAt={alerts.dataUpdatedAt} />
      </Toolbar>
      <DataTable
        tableId={history ? 'alert-history' : 'alerts-firing'}
        label={history ? 'Alert history' : 'Firing alerts'}
        columns={columnsOf(history, clusterName, access, (row) => open(row.id))}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({
          'data-state': row.state,
          'data-severity': row.severity,
          'data-subject': row.subject,
        })}
        rowTone={(row) => (row.state === 'firing' ? (row.severity === 'critical' ? 'danger' : 'warning') : undefined)}
        list={list}
        query={alerts}
        searchPlaceholder="Search subject or rule"
        filters={
          <Group gap="xs">
            <ClusterPicker
              everyCluster
              size="xs"
              value={clusterId}
              onChange={(picked) => list.setFilter('cluster', picked)}
              w={200}
            />
            {!history && (
              <Chip
                size="xs"
                variant="light"
                checked={withPending}
                onChange={(checked) => list.setFilter('pending', checked ? 'yes' : undefined)}
              >
                with pending
              </Chip>
            )}
          </Group>
        }
        empty={{
          title: history ? 'No resolved alerts' : 'Nothing is firing',
          description: history
            ? 'An alert that fired and stopped holding is kept here.'
            : 'Alerts appear here when a rule’s condition has held for its for-duration after a scrape sweep.',
        }}
      />
      <AlertDrawer alert={current} access={access} clusterName={clusterName} onClose={close} />
    </>
  );
}

export function AlertsScreen() {
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What the alert rules raise, judged after every scrape sweep of a cluster: pending until a rule's for-duration has held, then firing until its condition stops holding."
      />
      <AlertingTabs />
      <AlertList history={false} />
    </>
  );
}

export function AlertHistoryScreen() {
  return (
    <>
      <PageHeader title="Alert history" description="Alerts that fired and resolved, newest first." />
      <AlertingTabs />
      <AlertList history />
    </>
  );
}
