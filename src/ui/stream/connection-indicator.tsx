'use client';
// Shows the stream's state in the header, so a person knows whether the views update live or by polling. Only on
// a page whose data is live (a mounted query made live with useLive): elsewhere a "Live" badge would be a promise
// the page does not keep.
import { Badge, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useStreamStatus } from './stream-context.ts';
import { POLL_WHILE_DOWN_MS } from './live-query.ts';

const LOOK = {
  connected: { color: 'teal', label: 'Live', hint: 'Views update as changes happen.' },
  connecting: { color: 'gray', label: 'Connecting…', hint: 'Opening the live-update stream.' },
  down: {
    color: 'orange',
    label: 'Reconnecting…',
    hint: `The live-update stream is down; views refresh every ${POLL_WHILE_DOWN_MS / 1000} s until it is back.`,
  },
} as const;

/** Whether any query on the page (one with observers) follows stream topics. */
function usePageIsLive(): boolean {
  const cache = useQueryClient().getQueryCache();
  const isLive = () => cache.findAll({ type: 'active' }).some((query) => Array.isArray(query.meta?.topics));
  return useSyncExternalStore(
    (changed) => cache.subscribe(changed),
    isLive,
    () => false,
  );
}

export function ConnectionIndicator() {
  const stream = useStreamStatus();
  const pageIsLive = usePageIsLive();
  const state = stream?.status.state ?? 'connecting';
  const look = LOOK[state];
  const attempts = stream?.status.failures ?? 0;
  if (!pageIsLive) return null;
  return (
    <Tooltip label={look.hint} withArrow>
      <Badge
        variant="dot"
        color={look.color}
        size="lg"
        role="status"
        aria-live="polite"
        data-testid="stream-state"
        data-state={state}
        tabIndex={0}
      >
        {look.label}
        {state === 'down' && attempts > 1 ? ` (${attempts})` : ''}
      </Badge>
    </Tooltip>
  );
}
