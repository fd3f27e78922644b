'use client';
// One queue: its totals, a cell per node (a backup's cell that does not count, a stale node's old numbers, both
// marked), and the panels other modules contribute to `queue.detail.panels`.
import { Anchor, Badge, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
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
import { Count, formatCount, StaleMark } from './queue-numbers.tsx';
import { decodeSegment, queuesPath } from './queue-paths.ts';

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

function NodeCells({ queue }: { queue: Queue }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table verticalSpacing="xs" aria-label="Per node" data-testid="queue-cells">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Broker</Table.Th>
            <Table.Th>Logical node</Table.Th>
            {CELL_COUNTS.map(([field, header]) => (
              <Table.Th key={field} ta="right">
                {header}
              </Table.Th>
            ))}
            <Table.Th>Scraped</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {queue.cells.map((cell) => (
            <Table.Tr key={cell.nodeId} data-node-id={cell.nodeId} data-counted={cell.counted}>
              <Table.Td>
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
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace" c="dimmed">
                  {cell.logicalNode}
                </Text>
              </Table.Td>
              {CELL_COUNTS.map(([field]) => (
                <Table.Td key={field}>
                  <Count value={cell[field]} />
                </Table.Td>
              ))}
              <Table.Td>
                <TimeAgo iso={cell.scrapedAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function QueueDetailScreen() {
  const params = useParams<{ clusterId: string; queueName: string }>();
  const { clusterId } = params;
  const queueName = decodeSegment(params.queueName);
  const trpc = useTRPC();
  const queue = useQuery({ ...trpc.queues.get.queryOptions({ clusterId, queueName }), ...useLive(['queues']) });
  const back = (
    <Anchor component={Link} href={queuesPath(clusterId)} size="sm">
      All queues
    </Anchor>
  );
  if (queue.isError)
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
        description={data ? `Address ${data.address}, ${data.routingType.toLowerCase()}` : undefined}
        actions={
          <>
            {data?.paused && <Badge color="yellow">paused</Badge>}
            {data?.stale && <StaleMark />}
            {back}
          </>
        }
      />
      <Stack gap="lg">
        <PageSection title="Totals" description="Over logical nodes: a primary and its backup count once.">
          <SimpleGrid cols={{ base: 2, md: 5 }} mih={52}>
            {data && (
              <>
                <Total label="Messages" value={data.messageCount} />
                <Total label="Consumers" value={data.consumerCount} />
                <Total label="In delivery" value={data.deliveringCount} />
                <Total label="Added" value={data.messagesAdded} />
                <Total label="Expired" value={data.messagesExpired} />
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
          {data && <NodeCells queue={data} />}
        </PageSection>
        <Slot id="queue.detail.panels" props={{ clusterId, queueName }} />
      </Stack>
    </>
  );
}
