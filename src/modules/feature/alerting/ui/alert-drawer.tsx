'use client';
// One alert in full, opened from a row of Firing now or History: what can be done to it (the row's actions, off with
// the reason without alert:write), its facts (rule, subject, cluster, value, when it began, fired and resolved, who
// acknowledged it, its silence, how often it flapped), its delivery log (delivery-log.tsx) and its transition
// history (transition-history.tsx).
import { Anchor, Badge, Box, Drawer, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatAbsolute } from '@/ui/time/format-time.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { AlertActions } from './alert-actions.tsx';
import type { AlertRow } from './alert-row.ts';
import { SeverityBadge, type WriteAccess } from './alerting-parts.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import { TransitionHistory } from './transition-history.tsx';

export const STATE_COLOR: Record<string, string> = { firing: 'red', pending: 'yellow', resolved: 'gray' };

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
