'use client';
// Observe → Triage: the worst queues across every cluster whose metrics the viewer may read, ranked by verdict and
// then by how much the backlog grew; the verdict filter in the URL; each row links to its queue. Live on the
// fleet-wide consumer-health signal (the verdicts are judged after the scrape's sweeps). Above it, the clusters whose
// queues cannot be judged now (down or never polled), live on the fleet's health signal.
import { Anchor, Chip, Group, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { NEEDS_ATTENTION, verdictLabel } from '@/base/consumer-verdicts.ts';
import { VerdictBadge } from '@/ui/parts/verdict-badge.tsx';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { useFleet } from './fleet-home.tsx';
import { clustersNotJudged } from './not-judged.ts';
import { NotJudgedNotice } from './not-judged-notice.tsx';

type Row = RouterOutputs['triage']['worst']['items'][number];
type Input = RouterInputs['triage']['worst'];

const rate = (value: number | null) =>
  value === null ? '—' : value < 10 ? value.toFixed(1) : Math.round(value).toString();

const COLUMNS: readonly Column<Row>[] = [
  {
    id: 'verdict',
    header: 'Verdict',
    sortField: 'severity',
    width: 150,
    cell: (row) => <VerdictBadge verdict={row.verdict} />,
  },
  {
    id: 'queue',
    header: 'Queue',
    sortField: 'queueName',
    cell: (row) => (
      <EntityLink kind="queue" target={{ clusterId: row.clusterId, key: row.queueName, row }}>
        {row.queueName}
      </EntityLink>
    ),
  },
  {
    id: 'cluster',
    header: 'Cluster',
    cell: (row) => (
      <Anchor component={Link} href={`/clusters/${row.clusterId}`} size="sm">
        {row.clusterName}
      </Anchor>
    ),
  },
  {
    id: 'depth',
    header: 'Messages',
    sortField: 'depth',
    align: 'right',
    width: 110,
    cell: (row) => row.depth.toLocaleString('en'),
  },
  {
    id: 'growth',
    header: 'Grew by',
    sortField: 'depthChange',
    align: 'right',
    width: 100,
    cell: (row) =>
      row.depthChange === null ? (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ) : (
        <Text size="sm" c={row.depthChange > 0 ? 'orange' : undefined} ff="monospace">
          {row.depthChange > 0 ? '+' : ''}
          {Math.round(row.depthChange).toLocaleString('en')}
        </Text>
      ),
  },
  { id: 'in', header: 'In/s', sortField: 'inRate', align: 'right', width: 80, cell: (row) => rate(row.inRate) },
  { id: 'out', header: 'Out/s', sortField: 'outRate', align: 'right', width: 80, cell: (row) => rate(row.outRate) },
  {
    id: 'consumers',
    header: 'Consumers',
    sortField: 'consumers',
    align: 'right',
    width: 110,
    cell: (row) => row.consumers,
  },
  {
    id: 'judged',
    header: 'Judged',
    sortField: 'evaluatedAt',
    width: 130,
    cell: (row) => <TimeAgo iso={row.evaluatedAt} />,
  },
];

export function TriageScreen() {
  const trpc = useTRPC();
  const list = useListState({ sort: 'severity', filters: ['verdict'] });
  const wanted = (list.state.filters.verdict ?? '').split(',').filter(Boolean);
  const input: Input = {
    sort: list.state.sort,
    page: list.state.page,
    pageSize: list.state.pageSize,
    ...(wanted.length > 0 ? { verdict: wanted.join(',') } : {}),
  };
  const query = useQuery({
    ...trpc.triage.worst.queryOptions(input),
    ...useLive(['consumer-health']),
    placeholderData: keepPreviousData,
  });
  const notJudged = clustersNotJudged(useFleet().data?.clusters ?? []);
  return (
    <>
      <PageHeader
        title="Triage"
        description="The queues that need someone first, across every cluster you can see: worst verdict first, then the backlog that grew most over the health window. Verdicts are judged after the scrape's sweeps, at most once a minute per cluster."
      />
      <NotJudgedNotice clusters={notJudged} />
      <DataTable
        tableId="triage"
        label="Queues needing attention"
        columns={COLUMNS}
        rowKey={(row) => `${row.clusterId}:${row.routingType}:${row.address}:${row.queueName}`}
        rowAttributes={(row) => ({ 'data-verdict': row.verdict, 'data-cluster': row.clusterName })}
        list={list}
        query={query}
        searchPlaceholder="Search is in the command palette (Ctrl+K)"
        filters={
          <Chip.Group
            multiple
            value={wanted}
            onChange={(values) => list.setFilter('verdict', values.join(',') || undefined)}
          >
            <Group gap={6} aria-label="Verdicts">
              {NEEDS_ATTENTION.map((verdict) => (
                <Chip key={verdict} value={verdict} size="xs" variant="light">
                  {verdictLabel(verdict)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        }
        empty={{
          title: 'Nothing needs attention',
          description:
            notJudged.length > 0
              ? 'Every judged queue is healthy or draining; the clusters named above could not be judged.'
              : 'Every judged queue is healthy or draining. Verdicts appear a minute or so after a cluster’s queues are first listed.',
        }}
      />
    </>
  );
}
