// The queue grid's columns: the name links through `queue.link`, counts are cluster totals over logical nodes.
import { Badge, Text } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { Count, NodesPresent } from './queue-numbers.tsx';

export type QueueGridRow = RouterOutputs['queues']['list']['items'][number];

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
      id: 'nodes',
      header: 'Nodes',
      width: 90,
      sortField: 'nodesPresent',
      cell: (row) => <NodesPresent present={row.nodesPresent} total={row.nodesTotal} />,
    },
    {
      id: 'state',
      header: 'State',
      width: 100,
      cell: (row) =>
        row.paused ? (
          <Badge size="sm" color="yellow" variant="light">
            paused
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            active
          </Text>
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
