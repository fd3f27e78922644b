'use client';
// One queue: its totals, a cell per node (a backup's cell that does not count, a stale node's old numbers, both
// marked), the Operate menu (queue-operations.tsx), and the panels other modules contribute to `queue.detail.panels`.
import { Anchor, Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { Count, formatCount, StaleMark } from './queue-numbers.tsx';
import { decodeSegment } from '@/base/path-segment.ts';
import { queuesPath } from './queue-paths.ts';
import { QueueOperations } from './queue-operations.tsx';

type Queue = RouterOutputs['queues']['get'];

/** The per-node numbers and their headers. */
const CELL_COUNTS = [
  ['messageCount', 'Messages'],
  ['consumerCount', 'Consumers'],
  ['deliveringCount', 'In delivery'],
  ['messagesAdded', 'Added'],
  ['messagesAcked', 'Acknowledged'],
] as const;

function Total({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={600} ff="monospace" data-testid={`total-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {formatCount(value)}
      </Text>
    </Stack>
  );
}

type Cell = Queue['cells'][number];

const cellColumns: readonly Column<Cell>[] = [
  {
    id: 'broker',
    header: 'Broker',
    sortField: 'broker',
    cell: (cell) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {cell.brokerName ?? cell.nodeId}
        </Text>
        {cell.stale && <StaleMark />}
        {cell.paused && (
          <Badge size="xs" color="yellow" variant="light">
            paused
          </Badge>
        )}
        {!cell.counted && (
          <Badge size="xs" color="gray" variant="outline" title="Its logical node counts the serving member">
            not counted
          </Badge>
        )}
      </Group>
    ),
  },
  {
    id: 'logicalNode',
    header: 'Logical node',
    sortField: 'logicalNode',
    cell: (cell) => (
      <Text size="xs" ff="monospace" c="dimmed">
        {cell.logicalNode}
      </Text>
    ),
  },
  ...CELL_COUNTS.map(([field, header]): Column<Cell> => ({
    id: field,
    header,
    sortField: field,
    align: 'right',
    cell: (cell) => <Count value={cell[field]} />,
  })),
  { id: 'scraped', header: 'Scraped', sortField: 'scraped', cell: (cell) => <TimeAgo iso={cell.scrapedAt} /> },
];

function NodeCells({ queue }: { queue: Queue | undefined }) {
  const list = useListState({ sort: 'broker', prefix: 'cells' });
  const query = localQuery(queue?.cells, list, {
    text: (cell) => [cell.brokerName ?? cell.nodeId, cell.logicalNode].join(' '),
    sortValue: (cell, field) => {
      if (field === 'logicalNode') return cell.logicalNode;
      if (field === 'scraped') return Date.parse(cell.scrapedAt);
      const count = CELL_COUNTS.find(([name]) => name === field);
      return count ? cell[count[0]] : (cell.brokerName ?? cell.nodeId);
    },
  });
  return (
    <div data-testid="queue-cells">
      <DataTable
        tableId="queue-cells"
        label="Per node"
        columns={cellColumns}
        rowKey={(cell) => cell.nodeId}
        rowAttributes={(cell) => ({ 'data-node-id': cell.nodeId, 'data-counted': String(cell.counted) })}
        list={list}
        query={query}
        searchPlaceholder="Search brokers"
        empty={{
          title: 'No node lists this queue',
          description: 'It appears after the next scrape of a node that has it.',
        }}
        minWidth={800}
      />
    </div>
  );
}

export function QueueDetailScreen() {
  const params = useParams<{ clusterId: string; queueName: string }>();
  const { clusterId } = params;
  const queueName = decodeSegment(params.queueName);
  const trpc = useTRPC();
  const queue = useQuery({ ...trpc.queues.get.queryOptions({ clusterId, queueName }), ...useLive(['queues']) });
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const back = (
    <Anchor component={Link} href={queuesPath(clusterId)} size="sm">
      All queues
    </Anchor>
  );
  // Once read, a failed refresh keeps the page (and a Delete queue dialog's outcome) on screen.
  if (queue.isError && !queue.data)
    return (
      <Stack>
        {back}
        <ProblemView error={queue.error} onRetry={() => void queue.refetch()} />
      </Stack>
    );
  const data = queue.data;
  return (
    <>
      <PageHeader
        title={queueName}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
          { label: 'Queues', href: queuesPath(clusterId) },
        ]}
        description={data ? `Address ${data.address}, ${data.routingType.toLowerCase()}` : undefined}
        actions={
          <>
            {data?.paused && <Badge color="yellow">paused</Badge>}
            {data?.stale && <StaleMark />}
            <QueueOperations clusterId={clusterId} queue={data} />
            {back}
          </>
        }
      />
      <Stack gap="lg">
        <PageSection title="Totals" description="Over logical nodes: a primary and its backup count once.">
          <SimpleGrid cols={{ base: 2, md: 6 }} mih={52}>
            {data && (
              <>
                <Total label="Messages" value={data.messageCount} />
                <Total label="Consumers" value={data.consumerCount} />
                <Total label="In delivery" value={data.deliveringCount} />
                <Total label="Added" value={data.messagesAdded} />
                <Total label="Expired" value={data.messagesExpired} />
                <Total label="Killed" value={data.messagesKilled} />
              </>
            )}
          </SimpleGrid>
          {data && (
            <Text size="sm" c="dimmed">
              Listed by {data.nodesPresent} of {data.nodesTotal} logical nodes.
            </Text>
          )}
        </PageSection>
        <PageSection title="Per node" description="Each node’s last listing; a stale node keeps its numbers, marked.">
          <NodeCells queue={data} />
        </PageSection>
        <Slot id="queue.detail.panels" props={{ clusterId, queueName }} />
      </Stack>
    </>
  );
}
