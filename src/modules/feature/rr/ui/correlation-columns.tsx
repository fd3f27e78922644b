'use client';
// The correlations table's columns: the state, when the request was seen, its latency, the correlator's note, the
// correlation id and the request's headers as the content policy left them (expandable), and where the request
// address's messages are browsed when it did not complete (the messages module's `queue.actions` item, so the link
// is there only while that module is on).
import { Anchor, Badge, Button, Code, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { useState } from 'react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { RowMenuContribution } from '@/ui/slots/contribution-types.ts';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { ms, STATE_COLOR } from './rr-format.ts';

export type CorrelationRow = RouterOutputs['rr']['correlations']['items'][number];

export const correlationKey = (row: CorrelationRow) =>
  [row.state, row.nodeId, row.requestAt, row.correlationId ?? '', row.messageId ?? '', row.brokerMessageId ?? ''].join(
    '|',
  );

function HeadersCell({ headers }: { headers: CorrelationRow['headers'] }) {
  const [open, setOpen] = useState(false);
  const names = Object.keys(headers ?? {});
  if (!headers || names.length === 0)
    return (
      <Text span size="sm" c="dimmed">
        none
      </Text>
    );
  return (
    <Stack gap={4} align="flex-start">
      <Button size="compact-xs" variant="subtle" onClick={() => setOpen((shown) => !shown)} aria-expanded={open}>
        {open ? 'Hide' : `${String(names.length)} header${names.length === 1 ? '' : 's'}`}
      </Button>
      {open && (
        <Code block data-testid="correlation-headers" style={{ maxWidth: 360, whiteSpace: 'pre-wrap' }}>
          {JSON.stringify(headers, null, 2)}
        </Code>
      )}
    </Stack>
  );
}

export function correlationColumns(
  clusterId: string,
  browse: RowMenuContribution | undefined,
): readonly Column<CorrelationRow>[] {
  return [
    {
      id: 'state',
      header: 'State',
      sortField: 'state',
      cell: (row) => (
        <Badge color={STATE_COLOR[row.state]} variant="light" tt="none" data-testid="correlation-state">
          {row.state}
        </Badge>
      ),
    },
    { id: 'requestAt', header: 'Request', sortField: 'requestAt', cell: (row) => <TimeAgo iso={row.requestAt} /> },
    { id: 'latency', header: 'Latency', align: 'right', cell: (row) => ms(row.latencyMs) },
    {
      id: 'note',
      header: 'Note',
      cell: (row) =>
        row.note ?? (
          <Text span size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      id: 'correlationId',
      header: 'Correlation id',
      cell: (row) => <Code data-testid="correlation-id">{row.correlationId ?? row.messageId ?? '—'}</Code>,
    },
    { id: 'headers', header: 'Headers', cell: (row) => <HeadersCell headers={row.headers} /> },
    {
      id: 'browse',
      header: '',
      cell: (row) => {
        const href = browse?.href?.({ clusterId, key: row.address, row });
        return row.state !== 'COMPLETED' && href ? (
          <Anchor component={Link} href={href} size="sm" data-testid="browse-messages">
            Browse messages
          </Anchor>
        ) : null;
      },
    },
    {
      id: 'stateAt',
      header: 'Settled',
      sortField: 'stateAt',
      hiddenByDefault: true,
      cell: (row) => <TimeAgo iso={row.stateAt} />,
    },
    { id: 'replyAddress', header: 'Reply address', hiddenByDefault: true, cell: (row) => row.replyAddress ?? '—' },
    { id: 'pattern', header: 'Pattern', hiddenByDefault: true, cell: (row) => row.pattern },
    { id: 'feed', header: 'Seen by', hiddenByDefault: true, cell: (row) => row.feed },
    { id: 'clock', header: 'Clock', hiddenByDefault: true, cell: (row) => row.clock },
    { id: 'deadlineAt', header: 'Deadline', hiddenByDefault: true, cell: (row) => <TimeAgo iso={row.deadlineAt} /> },
    { id: 'nodeId', header: 'Node', hiddenByDefault: true, cell: (row) => <Code>{row.nodeId}</Code> },
  ];
}
