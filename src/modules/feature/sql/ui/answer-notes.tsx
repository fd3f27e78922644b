'use client';
// What the console says above the rows, always and in words: every bound the query reached (the answer lacks
// something, and what), what the source cannot see (sampling gaps, address-scoped capture: never dismissable), how
// old the answer is and what it examined, and for a live read what the brokers evaluated.
import { Alert, Code, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export interface Bound {
  readonly bound: string;
  readonly words: string;
}

export function BoundsReached({ bounds }: { bounds: readonly Bound[] }) {
  if (bounds.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="sql-bounds" data-bounds="none">
        No bound reached: the answer is whole.
      </Text>
    );
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title={bounds.length === 1 ? 'A bound was reached' : `${bounds.length} bounds were reached`}
      data-testid="sql-bounds"
      data-bounds={bounds.map((bound) => bound.bound).join(' ')}
    >
      <List size="sm" spacing={2}>
        {bounds.map((bound) => (
          <List.Item key={bound.bound} data-bound={bound.bound}>
            {bound.words}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Permanent: no close button, shown with every answer of the source. */
export function SourceNotices({ notices }: { notices: readonly string[] }) {
  if (notices.length === 0) return null;
  return (
    <Alert
      color="blue"
      icon={<IconInfoCircle size={18} />}
      title="What this source cannot see"
      data-testid="sql-notices"
    >
      <Stack gap={4}>
        {notices.map((notice) => (
          <Text key={notice} size="sm" data-testid="sql-notice">
            {notice}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

export function AnswerAge({
  source,
  fetchedAt,
  elapsedMs,
  scanned,
  rows,
  queuesAsOf,
}: {
  source: 'live' | 'index';
  fetchedAt: string;
  elapsedMs: number;
  scanned: number;
  rows: number;
  queuesAsOf: string | null;
}) {
  const examined = source === 'live' ? 'messages browsed on the brokers' : 'index rows examined';
  return (
    <Text size="sm" c="dimmed" data-testid="sql-age">
      Answered <TimeAgo iso={fetchedAt} inline /> in {elapsedMs.toLocaleString('en')} ms: {rows.toLocaleString('en')}{' '}
      {rows === 1 ? 'row' : 'rows'}, {scanned.toLocaleString('en')} {examined}
      {queuesAsOf ? (
        <>
          ; the queues read are those the scrape listed <TimeAgo iso={queuesAsOf} inline />
        </>
      ) : null}
      . Run it again for a newer answer.
    </Text>
  );
}

export function PushedDown({ selector, residual }: { selector: string | null; residual: boolean }) {
  return (
    <Text size="sm" c="dimmed" data-testid="sql-selector">
      {selector ? (
        <>
          The brokers filtered with <Code>{selector}</Code>
        </>
      ) : (
        'The brokers were asked for every message (nothing of the WHERE could be pushed down)'
      )}
      {residual ? '; the rest of the WHERE was evaluated here.' : '.'}
    </Text>
  );
}
