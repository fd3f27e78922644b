// The queue grid's columns: the name links through `queue.link`, counts are cluster totals over logical nodes. The
// cells that are more than a number are in queue-cells.tsx.
import { Text } from '@mantine/core';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import type { CsvColumn } from '@/ui/table/csv-text.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { NodesCell, Rate, StateCell, TrendCell, VerdictCell, type QueueGridRow } from './queue-cells.tsx';
import { Count } from './queue-numbers.tsx';

type Layout = Omit<Column<QueueGridRow>, 'cell' | 'sortField' | 'align'>;
type CountField =
  'consumerCount' | 'deliveringCount' | 'messagesAdded' | 'messagesAcked' | 'messagesExpired' | 'messagesKilled';
type RateField = 'inRate' | 'outRate' | 'depthRate';

/** A count, right-aligned and sorted by the server on its field. */
const countColumn = (field: CountField, layout: Layout): Column<QueueGridRow> => ({
  ...layout,
  align: 'right',
  sortField: field,
  cell: (row) => <Count value={row[field]} />,
});

/** A rate in messages per second, right-aligned and sorted by the server on its field. */
const rateColumn = (field: RateField, layout: Layout): Column<QueueGridRow> => ({
  ...layout,
  align: 'right',
  sortField: field,
  cell: (row) => <Rate value={row[field]} />,
});

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
    { id: 'trend', header: 'Last 15 min', width: 112, cell: (row) => <TrendCell row={row} /> },
    rateColumn('inRate', { id: 'inRate', header: 'In/s', width: 90 }),
    rateColumn('outRate', { id: 'outRate', header: 'Out/s', width: 90 }),
    rateColumn('depthRate', { id: 'depthRate', header: 'Growth/s', width: 110, hiddenByDefault: true }),
    { id: 'verdict', header: 'Health', width: 140, cell: (row) => <VerdictCell row={row} /> },
    countColumn('consumerCount', { id: 'consumers', header: 'Consumers', width: 120 }),
    countColumn('deliveringCount', { id: 'delivering', header: 'In delivery', width: 120, hiddenByDefault: true }),
    countColumn('messagesAdded', { id: 'added', header: 'Added', width: 120, hiddenByDefault: true }),
    countColumn('messagesAcked', { id: 'acked', header: 'Acknowledged', width: 140, hiddenByDefault: true }),
    countColumn('messagesExpired', { id: 'expired', header: 'Expired', width: 110, hiddenByDefault: true }),
    countColumn('messagesKilled', { id: 'killed', header: 'Killed', width: 100, hiddenByDefault: true }),
    { id: 'nodes', header: 'Nodes', width: 90, sortField: 'nodesPresent', cell: (row) => <NodesCell row={row} /> },
    { id: 'state', header: 'State', width: 150, cell: (row) => <StateCell row={row} /> },
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
