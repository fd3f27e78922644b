'use client';
// How old a screen's answer is, and what keeps it fresh: the stream's signals while it is connected (`refreshedWhen`
// says which), a poll every POLL_WHILE_DOWN_MS while it is not. Every screen that shows broker state says both.
import { Text } from '@mantine/core';
import { POLL_WHILE_DOWN_MS } from './live-query.ts';
import { useStreamStatus } from './stream-context.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export function DataAge({ readAt, refreshedWhen }: { readAt: string | undefined; refreshedWhen: string }) {
  const connected = useStreamStatus()?.status.state === 'connected';
  return (
    <Text size="sm" c="dimmed" data-testid="data-age" data-live={connected ? 'stream' : 'polling'}>
      {readAt ? (
        <>
          Read <TimeAgo iso={readAt} inline />
          {connected
            ? `; refreshed when ${refreshedWhen}.`
            : `; polling every ${String(POLL_WHILE_DOWN_MS / 1000)} seconds while the live stream is down.`}
        </>
      ) : (
        'Reading…'
      )}
    </Text>
  );
}
