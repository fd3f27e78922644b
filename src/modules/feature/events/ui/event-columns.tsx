// The events table's columns. The queue links to its detail page through the `queue.link` slot (the queues
// module's contribution), so the link follows whatever owns queue pages.
import { Badge, Button, Code } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export type EventRow = RouterOutputs['events']['list']['items'][number];

const KIND_COLOR: Record<string, string> = {
  CONSUMER_CREATED: 'teal',
  CONSUMER_CLOSED: 'gray',
  CONSUMER_SLOW: 'orange',
  SECURITY_AUTHENTICATION_VIOLATION: 'red',
  SECURITY_PERMISSION_VIOLATION: 'red',
};

export function eventColumns(clusterId: string, onOpen: (row: EventRow) => void): readonly Column<EventRow>[] {
  return [
    {
      id: 'brokerTime',
      header: 'When',
      sortField: 'brokerTime',
      width: 150,
      cell: (row) => <TimeAgo iso={row.brokerTime} />,
    },
    {
      id: 'kind',
      header: 'Kind',
      cell: (row) => (
        <Badge variant="light" color={KIND_COLOR[row.kind] ?? 'blue'} tt="none">
          {row.kind}
        </Badge>
      ),
    },
    { id: 'node', header: 'Node', cell: (row) => row.brokerName ?? row.nodeId },
    { id: 'address', header: 'Address', cell: (row) => row.address ?? '—' },
    {
      id: 'queue',
      header: 'Queue',
      cell: (row) =>
        row.queue ? (
          <EntityLink kind="queue" target={{ clusterId, key: row.queue, row }}>
            {row.queue}
          </EntityLink>
        ) : (
          '—'
        ),
    },
    { id: 'remoteAddress', header: 'Remote address', cell: (row) => row.remoteAddress ?? '—' },
    { id: 'user', header: 'User', cell: (row) => row.user ?? '—' },
    { id: 'consumerId', header: 'Consumer', hiddenByDefault: true, cell: (row) => row.consumerId ?? '—' },
    { id: 'sessionId', header: 'Session', hiddenByDefault: true, cell: (row) => <Code>{row.sessionId ?? '—'}</Code> },
    {
      id: 'connectionId',
      header: 'Connection',
      hiddenByDefault: true,
      cell: (row) => <Code>{row.connectionId ?? '—'}</Code>,
    },
    { id: 'seq', header: 'Seq', sortField: 'seq', hiddenByDefault: true, align: 'right', cell: (row) => row.seq },
    {
      id: 'details',
      header: '',
      width: 90,
      cell: (row) => (
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={() => onOpen(row)}
          aria-label={`Details of event ${row.seq}`}
        >
          Details
        </Button>
      ),
    },
  ];
}
