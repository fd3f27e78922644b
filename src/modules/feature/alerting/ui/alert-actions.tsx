'use client';
// Acknowledge, silence and unsilence, from an alert's row. Each is previewed first (the API's dry run: audited, nothing
// changes, and a refusal such as a silence ending in the past shows before anything is done), then applied; the
// dialog says what was done and the list refreshes on the `alerts` signal (and at once, here).
import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import type { AlertRow } from './alert-row.ts';
import { WriteGate, type WriteAccess } from './alerting-parts.tsx';
import { SilenceDialog } from './silence-dialog.tsx';
import { SimpleActionDialog, type SimpleAction } from './simple-action-dialog.tsx';

type Action = SimpleAction | 'silence';

/** The row's buttons; resolved alerts have none. */
export function AlertActions({ alert, access }: { alert: AlertRow; access: WriteAccess }) {
  const [open, setOpen] = useState<Action | undefined>(undefined);
  if (alert.state === 'resolved') return null;
  return (
    <Group gap={4} wrap="nowrap">
      <WriteGate access={access}>
        <Button
          size="compact-xs"
          variant="light"
          disabled={!access.allowed || alert.acknowledgedAt !== null}
          onClick={() => setOpen('acknowledge')}
        >
          Acknowledge
        </Button>
      </WriteGate>
      <WriteGate access={access}>
        <Button
          size="compact-xs"
          variant="light"
          color="gray"
          disabled={!access.allowed}
          onClick={() => setOpen('silence')}
        >
          Silence
        </Button>
      </WriteGate>
      {alert.silencedUntil !== null && (
        <WriteGate access={access}>
          <Button
            size="compact-xs"
            variant="subtle"
            color="gray"
            disabled={!access.allowed}
            onClick={() => setOpen('unsilence')}
          >
            Unsilence
          </Button>
        </WriteGate>
      )}
      {(open === 'acknowledge' || open === 'unsilence') && (
        <SimpleActionDialog alert={alert} action={open} onClose={() => setOpen(undefined)} />
      )}
      {open === 'silence' && <SilenceDialog alert={alert} onClose={() => setOpen(undefined)} />}
    </Group>
  );
}
