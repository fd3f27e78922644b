// The flows table's columns: the request address (a link to its flow), requests, latency percentiles, the timed-out
// share, the counts of the states that went wrong, and how the address is fed.
import { Anchor, Badge, Text } from '@mantine/core';
import Link from 'next/link';
import type { Column } from '@/ui/table/column.ts';
import { ms, percent, STATE_COLOR, type FlowSummary, type RrState } from './rr-format.ts';
import { rrFlowPath } from './rr-paths.ts';

const count = (state: RrState, header: string, hiddenByDefault = false): Column<FlowSummary> => ({
  id: state,
  header,
  align: 'right',
  hiddenByDefault,
  cell: (row) => (
    <Text
      span
      size="sm"
      c={row.states[state] > 0 ? STATE_COLOR[state] : 'dimmed'}
      fw={row.states[state] > 0 ? 600 : 400}
    >
      {row.states[state]}
    </Text>
  ),
});

export function FeedBadge({ mode }: { mode: string }) {
  return (
    <Badge variant="light" color={mode === 'capture' ? 'teal' : 'yellow'} data-testid="feed-mode">
      {mode === 'capture' ? 'captured' : 'sampled'}
    </Badge>
  );
}

export function flowColumns(clusterId: string, window: string): readonly Column<FlowSummary>[] {
  return [
    {
      id: 'address',
      header: 'Request address',
      sortField: 'address',
      cell: (row) => (
        <Anchor component={Link} href={rrFlowPath(clusterId, row.address, window)} size="sm" data-testid="flow-link">
          {row.address}
        </Anchor>
      ),
    },
    { id: 'requests', header: 'Requests', sortField: 'requests', align: 'right', cell: (row) => row.requests },
    { id: 'p50', header: 'p50', align: 'right', cell: (row) => ms(row.p50) },
    { id: 'p95', header: 'p95', sortField: 'p95', align: 'right', cell: (row) => ms(row.p95) },
    { id: 'p99', header: 'p99', align: 'right', cell: (row) => ms(row.p99) },
    {
      id: 'timedOutShare',
      header: 'Timed-out share',
      sortField: 'timedOutShare',
      align: 'right',
      cell: (row) => percent(row.timedOutShare),
    },
    count('TIMED_OUT', 'Timed out'),
    count('ORPHANED', 'Orphaned'),
    count('RESPONDER_DROPPED', 'Dropped'),
    count('ORPHANED_REPLY', 'Orphan replies'),
    count('COMPLETED', 'Completed', true),
    { id: 'feed', header: 'Feed', cell: (row) => <FeedBadge mode={row.feed.mode} /> },
    {
      id: 'expectation',
      header: 'Expectation',
      hiddenByDefault: true,
      cell: (row) =>
        row.expectation
          ? `${ms(row.expectation.expectedLatencyMs)} / deadline ${ms(row.expectation.deadlineMs)}`
          : 'none declared',
    },
  ];
}
