'use client';
// The registration checks' answers (status, what was found, and for a warn or fail what to change) and the nodes the
// probe found, each in the one table. The probe's answer lives only on this screen, so its view state is local.
import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { ConfigSnippet } from './config-snippet.tsx';

export type CheckResult = RouterOutputs['clusters']['register']['checks'][number];
export type ProbedNode = RouterOutputs['clusters']['register']['nodes'][number];

const COLORS = { ok: 'teal', warn: 'yellow', fail: 'red' } as const;
/** Failures first, then warnings: what needs attention leads. */
const STATUS_ORDER = { fail: 0, warn: 1, ok: 2 } as const;

const checkColumns: readonly Column<CheckResult>[] = [
  {
    id: 'status',
    header: 'Status',
    width: 90,
    sortField: 'status',
    cell: (check) => (
      <Badge color={COLORS[check.status]} variant="light">
        {check.status}
      </Badge>
    ),
  },
  {
    id: 'check',
    header: 'Check',
    sortField: 'check',
    cell: (check) => (
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {check.title}
          {check.blocking ? '' : ' (advisory)'}
        </Text>
        <Text size="sm">{check.detail}</Text>
        {check.advice && (
          <Text size="sm" c="dimmed">
            {check.advice}
          </Text>
        )}
        {check.snippet && check.status !== 'ok' && <ConfigSnippet snippet={check.snippet} />}
      </Stack>
    ),
  },
];

export function CheckResults({ checks }: { checks: readonly CheckResult[] }) {
  const list = useLocalListState({ sort: 'order' });
  const ordered = checks.map((check, order) => ({ ...check, order }));
  const query = localQuery(ordered, list, {
    text: (check) => [check.title, check.detail, check.advice ?? ''].join(' '),
    sortValue: (check, field) =>
      field === 'status' ? STATUS_ORDER[check.status] : field === 'check' ? check.title : check.order,
  });
  return (
    <div data-testid="check-results">
      <DataTable
        tableId="check-results"
        label="Registration checks"
        columns={checkColumns}
        rowKey={(check) => check.id}
        rowAttributes={(check) => ({ 'data-check': check.id, 'data-status': check.status })}
        list={list}
        query={query}
        searchPlaceholder="Search checks"
        empty={{ title: 'No checks ran' }}
        minWidth={560}
      />
    </div>
  );
}

const URL_SOURCE_WORDS = {
  given: 'you',
  'seed-port': 'topology (seed port, NodeID confirmed)',
  'seed-offset': 'topology (port offset, NodeID confirmed)',
  'not-confirmed': 'topology (URL not confirmed)',
} as const;

const nodeColumns: readonly Column<ProbedNode>[] = [
  {
    id: 'managementUrl',
    header: 'Management URL',
    sortField: 'managementUrl',
    cell: (node) => (
      <Text size="sm" ff="monospace">
        {node.managementUrl}
      </Text>
    ),
  },
  { id: 'broker', header: 'Broker', sortField: 'broker', cell: (node) => node.brokerName ?? '—' },
  { id: 'role', header: 'Role', sortField: 'role', cell: (node) => node.role },
  {
    id: 'foundBy',
    header: 'Found by',
    cell: (node) => (
      <Tooltip label={node.urlSource.detail} multiline w={360}>
        <Text size="sm" data-url-source={node.urlSource.method}>
          {URL_SOURCE_WORDS[node.urlSource.method]}
        </Text>
      </Tooltip>
    ),
  },
  {
    id: 'state',
    header: 'State',
    cell: (node) =>
      node.error ? (
        <Text size="sm" c="red">
          {node.error}
        </Text>
      ) : node.active ? (
        'active'
      ) : (
        'passive'
      ),
  },
];

export function ProbedNodes({ nodes }: { nodes: readonly ProbedNode[] }) {
  const list = useLocalListState({ sort: 'order' });
  const ordered = nodes.map((node, order) => ({ ...node, order }));
  const query = localQuery(ordered, list, {
    text: (node) => [node.managementUrl, node.brokerName ?? '', node.role, node.error ?? ''].join(' '),
    sortValue: (node, field) =>
      field === 'managementUrl'
        ? node.managementUrl
        : field === 'broker'
          ? (node.brokerName ?? '')
          : field === 'role'
            ? node.role
            : node.order,
  });
  return (
    <div data-testid="probed-nodes">
      <DataTable
        tableId="probed-nodes"
        label="Nodes found"
        columns={nodeColumns}
        rowKey={(node) => node.managementUrl}
        list={list}
        query={query}
        searchPlaceholder="Search nodes"
        empty={{ title: 'No node answered' }}
      />
    </div>
  );
}
