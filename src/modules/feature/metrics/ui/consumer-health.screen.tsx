'use client';
// Observe → Consumer health of a cluster: every queue's verdict, worst first, in the shared table with the verdict
// filter in the URL and the count of each verdict; live on the queues and events topics.
import { Chip, Group, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { VerdictBadge } from '@/ui/parts/verdict-badge.tsx';
import { VERDICTS_WORST_FIRST, verdictLabel } from '@/base/consumer-verdicts.ts';

type Input = RouterInputs['metrics']['consumerHealth'];
type Row = RouterOutputs['metrics']['consumerHealth']['items'][number];

const rate = (value: number | null) =>
  value === null ? '—' : value < 10 ? value.toFixed(1) : String(Math.round(value));

function columns(clusterId: string): readonly Column<Row>[] {
  return [
    {
      id: 'verdict',
      header: 'Verdict',
      width: 150,
      sortField: 'severity',
      cell: (row) => <VerdictBadge verdict={row.verdict} />,
    },
    {
      id: 'queue',
      header: 'Queue',
      sortField: 'queueName',
      cell: (row) => (
        <EntityLink kind="queue" target={{ clusterId, key: row.queueName, row }}>
          {row.queueName}
        </EntityLink>
      ),
    },
    {
      id: 'depth',
      header: 'Depth',
      align: 'right',
      width: 100,
      sortField: 'depth',
      cell: (row) => row.evidence.depth.toLocaleString('en'),
    },
    { id: 'in', header: 'In/s', align: 'right', width: 80, cell: (row) => rate(row.evidence.inRate) },
    { id: 'out', header: 'Out/s', align: 'right', width: 80, cell: (row) => rate(row.evidence.outRate) },
    { id: 'consumers', header: 'Consumers', align: 'right', width: 110, cell: (row) => row.evidence.consumers },
    {
      id: 'advice',
      header: 'What to do',
      cell: (row) => (
        <Text size="sm" lineClamp={2}>
          {row.advice}
        </Text>
      ),
    },
  ];
}

export function ConsumerHealthScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const trpc = useTRPC();
  const list = useListState({ sort: 'severity', filters: ['verdict'] });
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const wanted = (list.state.filters.verdict ?? '').split(',').filter(Boolean);
  const input: Input = {
    ...listInput(list.state),
    sort: list.state.sort,
    clusterId,
    ...(wanted.length > 0 ? { verdict: wanted.join(',') } : {}),
  };
  const query = useQuery({
    ...trpc.metrics.consumerHealth.queryOptions(input),
    ...useLive(['queues', 'events']),
    placeholderData: keepPreviousData,
  });
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  const counts = query.data?.counts;
  return (
    <>
      <PageHeader
        title="Consumer health"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="Why each queue's backlog is or is not draining, worst first, judged over the health window from the scrape's samples and the broker's own notifications."
      />
      <DataTable
        tableId="consumer-health"
        label="Consumer health"
        columns={columns(clusterId)}
        rowKey={(row) => `${row.routingType}:${row.address}:${row.queueName}`}
        rowAttributes={(row) => ({ 'data-verdict': row.verdict })}
        list={list}
        query={query}
        searchPlaceholder="Search queue or address"
        filters={
          <Chip.Group
            multiple
            value={wanted}
            onChange={(values) => list.setFilter('verdict', values.join(',') || undefined)}
          >
            <Group gap={6} aria-label="Verdicts">
              {VERDICTS_WORST_FIRST.map((verdict) => (
                <Chip key={verdict} value={verdict} size="xs" variant="light">
                  {verdictLabel(verdict)} {counts ? `(${String(counts[verdict])})` : ''}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        }
        empty={{
          title: 'No queues yet',
          description: 'Verdicts appear once the scrape has listed the cluster’s queues.',
        }}
      />
    </>
  );
}
