'use client';
// The tail's screen part: whether it is connected (or reconnecting, resuming after the last row it got), the pause
// button, the permanent notices and bounds, and the rows as they arrive, newest first.
import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { BoundsReached, SourceNotices } from './answer-notes.tsx';
import { ResultTable } from './result-table.tsx';
import type { SqlTail } from './use-sql-tail.ts';

const STATE_WORDS = {
  connecting: { color: 'gray', text: 'Connecting…' },
  open: { color: 'teal', text: 'Live: rows appear as they arrive' },
  reconnecting: { color: 'orange', text: 'Reconnecting… (resumes after the last row received)' },
  closed: { color: 'red', text: 'Stopped: the server ended the tail' },
} as const;

export function TailView({ tail, fileName }: { tail: SqlTail; fileName: string }) {
  const list = useLocalListState({ sort: '-#' });
  const words = STATE_WORDS[tail.state];
  return (
    <Stack gap="sm">
      <Group gap="sm" data-testid="sql-tail-status" data-state={tail.state}>
        <Badge
          color={words.color}
          variant="light"
          leftSection={tail.state === 'reconnecting' ? <Loader size={10} /> : null}
        >
          {words.text}
        </Badge>
        <Button
          size="xs"
          variant="default"
          leftSection={tail.paused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
          onClick={() => tail.setPaused(!tail.paused)}
        >
          {tail.paused ? 'Resume' : 'Pause'}
        </Button>
        {tail.paused && (
          <Text size="sm" c="dimmed" data-testid="sql-tail-held">
            Paused: {tail.held.toLocaleString('en')} new {tail.held === 1 ? 'row' : 'rows'} held, shown on resume.
          </Text>
        )}
        {tail.dropped > 0 && (
          <Text size="sm" c="dimmed">
            The {tail.dropped.toLocaleString('en')} oldest rows left the view (it keeps the newest {tail.rows.length}).
          </Text>
        )}
      </Group>
      {tail.lastFailure && (
        <Text size="sm" c="red" data-testid="sql-tail-failure">
          A read of the tail failed ({tail.lastFailure}); it reads again on the next change.
        </Text>
      )}
      <SourceNotices notices={tail.notices} />
      {tail.bounds.length > 0 && <BoundsReached bounds={tail.bounds} />}
      <ResultTable
        tableId="sql-tail"
        columns={tail.columns}
        rows={tail.rows}
        list={list}
        fileName={fileName}
        empty={{ title: 'No rows yet', description: 'Rows matching the query appear here as they arrive.' }}
      />
    </Stack>
  );
}
