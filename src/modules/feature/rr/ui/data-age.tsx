'use client';
// How old a screen's answer is (the server's `asOf`), and what keeps it fresh: the cluster's `rr` signals while the
// live stream is connected, a poll every 5 seconds while it is not.
import { Text } from '@mantine/core';
import { POLL_WHILE_DOWN_MS } from '@/ui/stream/live-query.ts';
import { useStreamStatus } from '@/ui/stream/stream-context.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

export function RrDataAge({ asOf }: { asOf: string | undefined }) {
  const connected = useStreamStatus()?.status.state === 'connected';
  return (
    <Text size="sm" c="dimmed" data-testid="data-age" data-live={connected ? 'stream' : 'polling'}>
      {asOf ? (
        <>
          Read <TimeAgo iso={asOf} inline />
          {connected
            ? '; refreshed when the correlator stores new correlations.'
            : `; polling every ${String(POLL_WHILE_DOWN_MS / 1000)} seconds while the live stream is down.`}
        </>
      ) : (
        'Reading…'
      )}
    </Text>
  );
}
