'use client';
// A timestamp in the viewer's zone with a relative hint; the full time with zone is in the tooltip.
import { Text, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatAbsolute, formatRelative } from './format-time.ts';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** `inline`: the relative time alone, inside a sentence ("read 5 seconds ago"); the full time in the tooltip. */
export function TimeAgo({
  iso,
  empty = '—',
  inline = false,
}: {
  iso: string | null | undefined;
  empty?: string;
  inline?: boolean;
}) {
  if (!iso)
    return (
      <Text span c="dimmed">
        {empty}
      </Text>
    );
  // Keyed by the time, so a new value starts from a fresh clock instead of one up to a tick old.
  return <TimeAgoOf key={iso} iso={iso} inline={inline} />;
}

function TimeAgoOf({ iso, inline }: { iso: string; inline: boolean }) {
  const now = useNow(inline ? 1_000 : 10_000);
  const date = new Date(iso);
  if (inline)
    return (
      <Tooltip label={`${formatAbsolute(date)} (${zone()})`} withArrow openDelay={300}>
        <time dateTime={iso}>{formatRelative(date, now)}</time>
      </Tooltip>
    );
  return (
    <Tooltip label={`${formatAbsolute(date)} (${zone()})`} withArrow openDelay={300}>
      <time dateTime={iso} style={{ display: 'block', whiteSpace: 'nowrap' }}>
        <Text size="sm" lh={1.3}>
          {formatRelative(date, now)}
        </Text>
        <Text size="xs" c="dimmed" lh={1.3}>
          {formatAbsolute(date)}
        </Text>
      </time>
    </Tooltip>
  );
}
