'use client';
// Acknowledge or unsilence: nothing to fill in, a preview (the API's dry run), then the action.
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { formatAbsolute } from '@/ui/time/format-time.ts';
import { ActionDone } from './action-done.tsx';
import type { AlertRow } from './alert-row.ts';
import { useRefreshAlerts } from './use-refresh-alerts.ts';

export type SimpleAction = 'acknowledge' | 'unsilence';

interface SimpleActionText {
  readonly title: string;
  readonly text: ReactNode;
  readonly button: string;
  readonly previewText: (alert: AlertRow) => string;
  readonly doneTitle: string;
  readonly doneText: (alert: AlertRow) => string;
}

const SIMPLE: Record<SimpleAction, SimpleActionText> = {
  acknowledge: {
    title: 'Acknowledge',
    text: 'Records that you are on it. It keeps firing, resolving and notifying as before.',
    button: 'Acknowledge',
    previewText: (alert) =>
      `Dry run: it would be acknowledged by you now; it is ${alert.state}${alert.acknowledgedBy ? `, already acknowledged by ${alert.acknowledgedBy}` : ''}.`,
    doneTitle: 'Acknowledged',
    doneText: (alert) => `Acknowledged by ${alert.acknowledgedBy ?? 'you'}.`,
  },
  unsilence: {
    title: 'Unsilence',
    text: 'Ends the silence now: its next transitions notify its channels again.',
    button: 'Unsilence',
    previewText: (alert) =>
      `Dry run: the silence until ${alert.silencedUntil ? formatAbsolute(new Date(alert.silencedUntil)) : '—'} would end now.`,
    doneTitle: 'Unsilenced',
    doneText: () => 'The silence has ended.',
  },
};

export function SimpleActionDialog({
  alert,
  action,
  onClose,
}: {
  alert: AlertRow;
  action: SimpleAction;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshAlerts();
  const spec = SIMPLE[action];
  const procedure = action === 'acknowledge' ? trpc.alerting.acknowledge : trpc.alerting.unsilence;
  const preview = useMutation(procedure.mutationOptions());
  const apply = useMutation(procedure.mutationOptions({ onSuccess: refresh }));
  return (
    <Modal opened onClose={onClose} title={`${spec.title} ${alert.rule}`} size="lg" data-testid={`${action}-dialog`}>
      <Stack gap="sm">
        <Text size="sm">
          <strong>{alert.subject}</strong>: {spec.text}
        </Text>
        {!apply.data && (
          <Group>
            <Button
              variant="default"
              loading={preview.isPending}
              onClick={() => preview.mutate({ id: alert.id, dryRun: true })}
            >
              Preview
            </Button>
            <Button loading={apply.isPending} onClick={() => apply.mutate({ id: alert.id })}>
              {spec.button}
            </Button>
          </Group>
        )}
        {preview.data && !apply.data && (
          <Alert variant="light" color="blue" data-testid="action-preview">
            {spec.previewText(preview.data)}
          </Alert>
        )}
        {(preview.error ?? apply.error) && <ProblemView error={preview.error ?? apply.error} />}
        {apply.data && (
          <ActionDone title={spec.doneTitle} onClose={onClose}>
            {spec.doneText(apply.data)}
          </ActionDone>
        )}
      </Stack>
    </Modal>
  );
}
