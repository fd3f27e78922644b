'use client';
// Destructive operations are confirmed by holding the button (pointer, Space or Enter) for HOLD_MS. The label
// names the action and how many things it touches, so the confirmation is about something specific.
import { Button, Progress, Stack } from '@mantine/core';
import { useEffect, useState, type KeyboardEvent } from 'react';

const HOLD_MS = 1_500;

export function HoldToConfirm({
  action,
  count,
  noun,
  onConfirm,
  disabled,
}: {
  /** The verb, e.g. "Purge". */
  action: string;
  count: number;
  /** Singular and plural of what is acted on, e.g. ["queue", "queues"]. */
  noun: readonly [string, string];
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [holdingSince, setHoldingSince] = useState<number | undefined>(undefined);
  const [progress, setProgress] = useState(0);
  const label = `Hold to ${action.toLowerCase()} ${count} ${count === 1 ? noun[0] : noun[1]}`;

  useEffect(() => {
    if (holdingSince === undefined) return undefined;
    let frame = requestAnimationFrame(function step() {
      const elapsed = performance.now() - holdingSince;
      if (elapsed >= HOLD_MS) {
        setHoldingSince(undefined);
        setProgress(0);
        onConfirm();
        return;
      }
      setProgress((elapsed / HOLD_MS) * 100);
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [holdingSince, onConfirm]);

  const begin = () => {
    if (!disabled && holdingSince === undefined) setHoldingSince(performance.now());
  };
  const cancel = () => {
    setHoldingSince(undefined);
    setProgress(0);
  };
  const isHoldKey = (event: KeyboardEvent) => event.key === ' ' || event.key === 'Enter';

  return (
    <Stack gap={4}>
      <Button
        color="red"
        disabled={disabled}
        aria-label={`${label} (press and hold)`}
        onPointerDown={begin}
        onPointerUp={cancel}
        onPointerLeave={cancel}
        onKeyDown={(event) => {
          if (!isHoldKey(event)) return;
          event.preventDefault();
          begin();
        }}
        onKeyUp={(event) => isHoldKey(event) && cancel()}
        onBlur={cancel}
      >
        {label}
      </Button>
      <Progress value={progress} color="red" size="xs" aria-hidden transitionDuration={0} />
    </Stack>
  );
}
