'use client';
// One alert in full, opened from a row of Firing now or History: its facts (rule, subject, cluster, value, when it
// began, fired and resolved, who acknowledged it, its silence, how often it flapped), what can be done to it (the
// row's actions, off with the reason without alert:write), its delivery log (one row per channel and event, with
// the attempt, the status, the last answer and the next attempt) and its transition history (what or who changed it,
// to which state, when). Both lists are the shared table; both are live on the `alerts` signal (polling while the
// stream is down), and the delivery log also rereads every 5 s while a delivery is still pending, since the
// deliverer's attempts change no alert and send no signal.
import { Anchor, Badge, Box, Drawer, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { formatAbsolute } from '@/ui/time/format-time.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { AlertActions } from './alert-actions.tsx';
import { SeverityBadge, type WriteAccess } from './alerting-parts.tsx';

type AlertRow = RouterOutputs['alerting']['list']['items'][number];
type Delivery = RouterOutputs['alerting']['deliveries']['items'][number];
type Transition = RouterOutputs['alerting']['transitions']['items'][number];

export const STATE_COLOR: Record<string, string> = { firing: 'red', pending: 'yellow', resolved: 'gray' };
const DELIVERY_COLOR: Record<string, string> = { delivered: 'teal', pending: 'yellow', failed: 'red' };
const TRANSITION_COLOR: Record<string, string> = {
  pending: 'yellow',
  firing: 'red',
  reopened: 'red',
  resolved: 'teal',
  dropped: 'gray',
  acknowledged: 'blue',
  silenced: 'grape',
  unsilenced: 'grape',
};
const POLL_WHILE_PENDING_MS = 5_000;

function Heading({ children }: { children: ReactNode }) {
  return (
    <Title order={4} fz="sm">
      {children}
    </Title>
  );
}

const when = (iso: string | null) => (iso ? <TimeAgo iso={iso} /> : '—');

/** The alert's facts: name–value rows of one record, not a list to search. */
function Facts({ alert, clusterName }: { alert: AlertRow; clusterName: string }) {
  const rows: { name: string; value: ReactNode }[] = [
    {
      name: 'State',
      value: (
        <Badge color={STATE_COLOR[alert.state] ?? 'gray'} variant="filled" size="sm">
          {alert.state}
        </Badge>
      ),
    },
    { name: 'Severity', value: <SeverityBadge severity={alert.severity} /> },
    {
      name: 'Rule',
      value: (
        <Anchor component={Link} href={`/alerts/rules/${alert.ruleId}`} size="sm">
          {alert.rule}
        </Anchor>
      ),
    },
    { name: 'Subject', value: alert.subject },
    {
      name: 'Cluster',
      value: (
        <Anchor component={Link} href={`/clusters/${alert.clusterId}`} size="sm">
          {clusterName}
        </Anchor>
      ),
    },
    { name: 'Value', value: alert.lastValue === null ? '—' : alert.lastValue.toLocaleString('en') },
    { name: 'Since', value: when(alert.since) },
    { name: 'Fired', value: when(alert.firedAt) },
    { name: 'Resolved', value: when(alert.resolvedAt) },
    {
      name: 'Acknowledged',
      value: alert.acknowledgedBy ? (
        <>
          by {alert.acknowledgedBy} {when(alert.acknowledgedAt)}
        </>
      ) : (
        '—'
      ),
    },
    {
      name: 'Silenced',
      value: alert.silencedUntil
        ? `until ${formatAbsolute(new Date(alert.silencedUntil))}: ${alert.silenceReason ?? ''}`
        : '—',
    },
    { name: 'Flaps', value: alert.flapCount.toLocaleString('en') },
  ];
  return (
    <Box
      component="dl"
      data-testid="alert-facts"
      m={0}
      style={{ display: 'grid', gridTemplateColumns: 'minmax(110px, max-content) 1fr', columnGap: 16, rowGap: 6 }}
    >
      {rows.map((row) => (
        <Box key={row.name} style={{ display: 'contents' }} data-field={row.name}>
          <Text component="dt" size="sm" c="dimmed" m={0}>
            {row.name}
          </Text>
          <Box component="dd" m={0} fz="sm" style={{ wordBreak: 'break-word' }}>
            {row.value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function deliveryColumns(channelName: (id: string) => string): readonly Column<Delivery>[] {
  return [
    { id: 'channel', header: 'Channel', sortField: 'channel', cell: (row) => channelName(row.channelId) },
    { id: 'event', header: 'Event', width: 90, sortField: 'event', cell: (row) => row.event },
    { id: 'attempt', header: 'Attempt', align: 'right', width: 80, cell: (row) => row.attempt },
    {
      id: 'status',
      header: 'Status',
      width: 100,
      sortField: 'status',
      cell: (row) => (
        <Badge color={DELIVERY_COLOR[row.status] ?? 'gray'} variant="light" size="sm">
          {row.status}
        </Badge>
      ),
    },
    {
      id: 'response',
      header: 'Response',
      cell: (row) => (
        <Text size="xs" ff="monospace" style={{ wordBreak: 'break-word' }}>
          {row.response ?? '—'}
        </Text>
      ),
    },
    { id: 'at', header: 'At', width: 110, sortField: 'at', cell: (row) => <TimeAgo iso={row.at} /> },
    {
      id: 'nextAttemptAt',
      header: 'Next attempt',
      width: 110,
      cell: (row) => (row.status === 'pending' && row.nextAttemptAt ? <TimeAgo iso={row.nextAttemptAt} /> : '—'),
    },
  ];
}

const TRANSITION_COLUMNS: readonly Column<Transition>[] = [
  { id: 'at', header: 'When', width: 120, sortField: 'seq', cell: (row) => <TimeAgo iso={row.at} /> },
  {
    id: 'transition',
    header: 'Transition',
    width: 120,
    sortField: 'transition',
    cell: (row) => (
      <Badge color={TRANSITION_COLOR[row.transition] ?? 'gray'} variant="light" size="sm">
        {row.transition}
      </Badge>
    ),
  },
  { id: 'state', header: 'State after', width: 100, cell: (row) => row.state },
  { id: 'actor', header: 'By', sortField: 'actor', cell: (row) => row.actor },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    width: 90,
    cell: (row) => (row.value === null ? '—' : row.value.toLocaleString('en')),
  },
];

function DeliveryLog({ alertId }: { alertId: string }) {
  const trpc = useTRPC();
  const live = useLive(['alerts']);
  const deliveries = useQuery({
    ...trpc.alerting.deliveries.queryOptions({ id: alertId }),
    ...live,
    refetchInterval: (query) =>
      live.refetchInterval ||
      (query.state.data?.items.some((row) => row.status === 'pending') ? POLL_WHILE_PENDING_MS : false),
  });
  const channels = useQuery(trpc.alerting.listChannels.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const names = new Map((channels.data?.items ?? []).map((channel) => [channel.id, channel.name]));
  const channelName = (id: string) => names.get(id) ?? `deleted channel ${id.slice(0, 8)}`;
  const list = useLocalListState({ sort: 'at', pageSize: 10 });
  const query = localQuery(
    deliveries.data?.items,
    list,
    {
      text: (row) => [channelName(row.channelId), row.event, row.status, row.response ?? ''].join(' '),
      sortValue: (row, field) =>
        field === 'channel'
          ? channelName(row.channelId)
          : field === 'event'
            ? row.event
            : field === 'status'
              ? row.status
              : row.at,
    },
    deliveries,
  );
  return (
    <Stack gap="xs" data-testid="alert-deliveries">
      <Heading>Delivery log</Heading>
      <DataTable
        tableId="alert-deliveries"
        label="Delivery log"
        columns={deliveryColumns(channelName)}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-event': row.event, 'data-status': row.status })}
        rowTone={(row) => (row.status === 'failed' ? 'danger' : undefined)}
        list={list}
        query={query}
        minWidth={640}
        searchPlaceholder="Search channel, event, status or answer"
        empty={{
          title: 'Nothing delivered',
          description:
            'A transition notifies the rule’s channels: this alert’s rule has none, or its transitions so far were silenced or never fired.',
        }}
      />
    </Stack>
  );
}

function TransitionHistory({ alertId }: { alertId: string }) {
  const trpc = useTRPC();
  const transitions = useQuery({ ...trpc.alerting.transitions.queryOptions({ id: alertId }), ...useLive(['alerts']) });
  const list = useLocalListState({ sort: 'seq', pageSize: 10 });
  const query = localQuery(
    transitions.data?.items,
    list,
    {
      text: (row) => [row.transition, row.state, row.actor].join(' '),
      sortValue: (row, field) =>
        field === 'transition'
          ? row.transition
          : field === 'actor'
            ? row.actor
            : // seq is a bigint as text: pad it so text order is number order.
              row.seq.padStart(20, '0'),
    },
    transitions,
  );
  return (
    <Stack gap="xs" data-testid="alert-transitions">
      <Heading>Transitions</Heading>
      <DataTable
        tableId="alert-transitions"
        label="Transitions"
        columns={TRANSITION_COLUMNS}
        rowKey={(row) => row.seq}
        rowAttributes={(row) => ({ 'data-transition': row.transition, 'data-actor': row.actor })}
        list={list}
        query={query}
        minWidth={480}
        searchPlaceholder="Search transition or who"
        empty={{ title: 'No transitions kept', description: 'Transitions older than the retention are deleted.' }}
      />
    </Stack>
  );
}

export function AlertDrawer({
  alert,
  access,
  clusterName,
  onClose,
}: {
  alert: AlertRow | undefined;
  access: WriteAccess;
  clusterName: (id: string) => string;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={alert !== undefined}
      onClose={onClose}
      position="right"
      size="xl"
      title={alert ? `${alert.rule}: ${alert.subject}` : ''}
      data-testid="alert-drawer"
    >
      {alert && (
        <Stack gap="lg">
          <AlertActions alert={alert} access={access} />
          <Facts alert={alert} clusterName={clusterName(alert.clusterId)} />
          <DeliveryLog alertId={alert.id} />
          <TransitionHistory alertId={alert.id} />
        </Stack>
      )}
    </Drawer>
  );
}
