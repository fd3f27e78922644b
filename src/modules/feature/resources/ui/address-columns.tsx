// The columns of the addresses table: the name links through the `address.link` slot to its page; memory reads
// against max-size, and paging stands out.
import { Badge } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { nodeColumn } from './column-parts.tsx';
import { bytes, count } from './resource-format.ts';

type AddressView = RouterOutputs['resources']['addresses']['items'][number];

export function addressColumns(clusterId: string): Column<AddressView>[] {
  return [
    {
      id: 'name',
      header: 'Address',
      sortField: 'name',
      cell: (row) => (
        <EntityLink kind="address" target={{ clusterId, key: row.name, row }}>
          {row.name}
        </EntityLink>
      ),
    },
    nodeColumn(clusterId),
    { id: 'routingTypes', header: 'Routing', cell: (row) => row.routingTypes.join(', ') },
    { id: 'queueCount', header: 'Queues', sortField: 'queueCount', align: 'right', cell: (row) => row.queueCount },
    {
      id: 'messageCount',
      header: 'Messages',
      sortField: 'messageCount',
      align: 'right',
      cell: (row) => count(row.messageCount),
    },
    {
      id: 'sizeBytes',
      header: 'Memory',
      sortField: 'sizeBytes',
      align: 'right',
      cell: (row) => bytes(row.sizeBytes),
    },
    {
      id: 'limitPercent',
      header: 'Of max-size',
      sortField: 'limitPercent',
      align: 'right',
      cell: (row) => `${String(row.limitPercent)}%`,
    },
    {
      id: 'paging',
      header: 'Paging',
      cell: (row) =>
        row.paging ? (
          <Badge color="orange" variant="light" data-testid="address-paging">
            paging, {row.pages} {row.pages === 1 ? 'page' : 'pages'}
          </Badge>
        ) : (
          'no'
        ),
    },
    {
      id: 'routed',
      header: 'Routed',
      sortField: 'routed',
      align: 'right',
      hiddenByDefault: true,
      cell: (row) => count(row.routed),
    },
    {
      id: 'unrouted',
      header: 'Unrouted',
      sortField: 'unrouted',
      align: 'right',
      hiddenByDefault: true,
      cell: (row) => count(row.unrouted),
    },
  ];
}
