// The queue grid's columns: the name links through `queue.link`, counts are cluster totals over logical nodes.
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import type { CsvColumn } from '@/ui/table/csv-text.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { VerdictBadge } from '@/ui/parts/verdict-badge.tsx';
import { Sparkline } from '@/ui/chart/sparkline.tsx';
import { Count, NodesPresent } from './queue-numbers.tsx';

export type QueueGridRow = RouterOutputs['queues']['list']['items'][number];

/** Messages per second: one decimal below 10, whole numbers above; a dash while not known. */
function Rate({ value }: { value: number | null }) {
  if (value === null)
    return (
      <Text size="sm" c="dimmed" ff="monospace">
        —
      </Text>
    );
  return (
    <Text size="sm" ff="monospace">
      {value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en')}
    </Text>
  );
}

export function queueColumns(clusterId: string): readonly Column<QueueGridRow>[] {
  return [
    {
      id: 'name',
      header: 'Queue',
      sortField: 'queueName',
      cell: (row) => (
        <EntityLink kind="queue" target={{ clusterId, key: row.queueName, row }}>
          {row.queueName}
        </EntityLink>
      ),
    },
    {
      id: 'address',
      header: 'Address',
      sortField: 'address',
      cell: (row) => (
        <Text size="sm" c={row.address === row.queueName ? 'dimmed' : undefined}>
          {row.address}
        </Text>
      ),
    },
    { id: 'routing', header: 'Routing', width: 100, hiddenByDefault: true, cell: (row) => row.routingType },
    {
      id: 'messages',
      header: 'Messages',
      align: 'right',
      width: 140,
      sortField: 'messageCount',
      cell: (row) => <Count value={row.messageCount} stale={row.stale} />,
    },
    {
      id: 'trend',
      header: 'Last 15 min',
      width: 112,
      cell: (row) =>
        row.trend ? (
          <Sparkline values={row.trend.depth} label={`Depth of ${row.queueName} over the last 15 minutes`} />
        ) : (
          <Text size="xs" c="dimmed">
            no samples
          </Text>
        ),
    },
    {
      id: 'inRate',
      header: 'In/s',
      align: 'right',
      width: 90,
      sortField: 'inRate',
      cell: (row) => <Rate value={row.inRate} />,
    },
    {
      id: 'outRate',
      header: 'Out/s',
      align: 'right',
      width: 90,
      sortField: 'outRate',
      cell: (row) => <Rate value={row.outRate} />,
    },
    {
      id: 'depthRate',
      header: 'Growth/s',
      align: 'right',
      width: 110,
      sortField: 'depthRate',
      hiddenByDefault: true,
      cell: (row) => <Rate value={row.depthRate} />,
    },
    {
      id: 'verdict',
      header: 'Health',
      width: 140,
      cell: (row) =>
        row.verdict ? (
          <VerdictBadge verdict={row.verdict} size="sm" />
        ) : (
          <Text size="xs" c="dimmed">
            not judged
          </Text>
        ),
    },
    {
      id: 'consumers',
      header: 'Consumers',
      align: 'right',
      width: 120,
      sortField: 'consumerCount',
      cell: (row) => <Count value={row.consumerCount} />,
    },
    {
      id: 'delivering',
      header: 'In delivery',
      align: 'right',
      width: 120,
      sortField: 'deliveringCount',
      hiddenByDefault: true,
      cell: (row) => <Count value={row.deliveringCount} />,
    },
    {
      id: 'added',
      header: 'Added',
      align: 'right',
      width: 120,
      sortField: 'messagesAdded',
      hiddenByDefault: true,
      cell: (row) => <Count value={row.messagesAdded} />,
    },
    {
      id: 'acked',
      header: 'Acknowledged',
      align: 'right',
      width: 140,
      sortField: 'messagesAcked',
      hiddenByDefault: true,
      cell: (row) => <Count value={row.messagesAcked} />,
    },
    {
      id: 'expired',
      header: 'Expired',
      align: 'right',
      width: 110,
      sortField: 'messagesExpired',
      hiddenByDefault: true,
      cell: (row) => <Count value={row.messagesExpired} />,
    },
    {
      id: 'killed',
      header: 'Killed',
      align: 'right',
      width: 100,
      sortField: 'messagesKilled',
      hiddenByDefault: true,
      cell: (row) => <Count value={row.messagesKilled} />,
    },
    {
      id: 'nodes',
      header: 'Nodes',
      width: 90,
      sortField: 'nodesPresent',
      // A store-and-forward queue lives on one node by design: not a partial presence.
      cell: (row) =>
        row.internal ? (
          <Text size="sm" c="dimmed">
            {row.nodesPresent}
          </Text>
        ) : (
          <NodesPresent present={row.nodesPresent} total={row.nodesTotal} />
        ),
    },
    {
      id: 'state',
      header: 'State',
      width: 150,
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          {row.paused ? (
            <Badge size="sm" color="yellow" variant="light">
              paused
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              active
            </Text>
          )}
          {row.deadLetter && (
            <Tooltip label="Its address is a dead-letter or expiry address in the brokers’ own address settings">
              <Badge size="sm" color={row.deadLetterKind === 'expiry' ? 'yellow' : 'red'} variant="outline">
                {row.deadLetterKind === 'expiry' ? 'expiry' : 'DLQ'}
              </Badge>
            </Tooltip>
          )}
          {row.internal && (
            <Badge size="sm" color="gray" variant="outline">
              internal
            </Badge>
          )}
        </Group>
      ),
    },
    {
      id: 'scraped',
      header: 'Scraped',
      width: 150,
      sortField: 'scrapedAt',
      cell: (row) => <TimeAgo iso={row.scrapedAt} />,
    },
  ];
}

/** What the CSV export writes: the grid's totals and rates, one line per queue of the filtered view. */
export const QUEUE_CSV_COLUMNS: readonly CsvColumn<QueueGridRow>[] = [
  { header: 'queue', value: (row) => row.queueName },
  { header: 'address', value: (row) => row.address },
  { header: 'routing type', value: (row) => row.routingType },
  { header: 'messages', value: (row) => row.messageCount },
  { header: 'consumers', value: (row) => row.consumerCount },
  { header: 'in delivery', value: (row) => row.deliveringCount },
  { header: 'added', value: (row) => row.messagesAdded },
  { header: 'acknowledged', value: (row) => row.messagesAcked },
  { header: 'expired', value: (row) => row.messagesExpired },
  { header: 'killed', value: (row) => row.messagesKilled },
  { header: 'in per second', value: (row) => row.inRate },
  { header: 'out per second', value: (row) => row.outRate },
  { header: 'growth per second', value: (row) => row.depthRate },
  { header: 'nodes present', value: (row) => row.nodesPresent },
  { header: 'nodes total', value: (row) => row.nodesTotal },
  { header: 'paused', value: (row) => row.paused },
  { header: 'dead letter or expiry', value: (row) => row.deadLetter },
  { header: 'internal', value: (row) => row.internal },
  { header: 'stale', value: (row) => row.stale },
  { header: 'consumer health', value: (row) => row.verdict },
  { header: 'scraped at', value: (row) => row.scrapedAt },
];
