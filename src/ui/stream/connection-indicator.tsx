'use client';
// Shows the stream's state in the header, so a person knows whether the views update live or by polling.
import { Badge, Tooltip } from '@mantine/core';
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

export function ConnectionIndicator() {
  const stream = useStreamStatus();
  const state = stream?.status.state ?? 'connecting';
  const look = LOOK[state];
  const attempts = stream?.status.failures ?? 0;
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
