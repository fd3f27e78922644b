'use client';
// The dead-letter list's columns: each queue with its selection box, cluster, kind, depth as the brokers hold it now
// (or the scrape's number, marked, when no node answered), oldest message and the addresses its messages died on.
import { Anchor, Badge, Checkbox, Group, Text, Tooltip } from '@mantine/core';
import Link from 'next/link';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { formatCount } from '@/modules/platform/commands/ui.ts';

export type DeadLetterAnswer = RouterOutputs['queues']['deadLetters'];
export type DeadLetterRow = DeadLetterAnswer['items'][number];
type Row = DeadLetterRow;

const SHOWN_ADDRESSES = 3;

export const rowKey = (row: Row) =>
  `${row.clusterId}\u0000${row.routingType}\u0000${row.address}\u0000${row.queueName}`;

function OriginalAddresses({ row }: { row: Row }) {
  if (row.originalAddresses.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const more = row.originalAddressCount - Math.min(SHOWN_ADDRESSES, row.originalAddresses.length);
  return (
    <Group gap={4} data-testid="original-addresses">
      {row.originalAddresses.slice(0, SHOWN_ADDRESSES).map((original) => (
        <Badge key={original.address} size="sm" variant="light" color="gray" tt="none">
          {original.address} · {formatCount(original.count)}
        </Badge>
      ))}
      {more > 0 && (
        <Text size="xs" c="dimmed">
          +{more} more
        </Text>
      )}
    </Group>
  );
}

function Depth({ row }: { row: Row }) {
  const live = row.liveCount;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Text size="sm" ff="monospace" c={live === null ? 'dimmed' : undefined}>
        {formatCount(live ?? row.messageCount)}
      </Text>
      {(live === null || !row.complete) && (
        <Tooltip
          label={
            live === null
              ? 'No node answered: the number is the one the scrape last read'
              : 'Some node did not answer: counted over the nodes that did'
          }
        >
          <Badge size="xs" color="orange" variant="light">
            {live === null ? 'scraped' : 'partial'}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

export function columnsFor(selected: ReadonlyMap<string, Row>, toggle: (row: Row) => void): readonly Column<Row>[] {
  return [
    {
      id: 'queue',
      header: 'Queue',
      sortField: 'queueName',
      cell: (row) => (
        <Group gap="xs" wrap="nowrap">
          <Checkbox
            aria-label={`Select ${row.queueName} of ${row.clusterName}`}
            checked={selected.has(rowKey(row))}
            onChange={() => toggle(row)}
          />
          <EntityLink kind="queue" target={{ clusterId: row.clusterId, key: row.queueName, row }}>
            {row.queueName}
          </EntityLink>
        </Group>
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
      id: 'kind',
      header: 'Kind',
      width: 110,
      cell: (row) => (
        <Badge size="sm" variant="outline" color={row.kind === 'expiry' ? 'yellow' : 'red'}>
          {row.kind ?? 'dead-letter'}
        </Badge>
      ),
    },
    { id: 'address', header: 'Address', sortField: 'address', hiddenByDefault: true, cell: (row) => row.address },
    {
      id: 'depth',
      header: 'Messages',
      sortField: 'messageCount',
      align: 'right',
      width: 130,
      cell: (row) => <Depth row={row} />,
    },
    { id: 'oldest', header: 'Oldest', width: 140, cell: (row) => <TimeAgo iso={row.oldestMessageAt} /> },
    { id: 'origins', header: 'Died on', cell: (row) => <OriginalAddresses row={row} /> },
    {
      id: 'scraped',
      header: 'Scraped',
      sortField: 'scrapedAt',
      hiddenByDefault: true,
      width: 130,
      cell: (row) => <TimeAgo iso={row.scrapedAt} />,
    },
  ];
}
