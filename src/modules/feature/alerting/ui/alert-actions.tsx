'use client';
// Acknowledge, silence and unsilence, from an alert's row. Each is previewed first (the API's dry run: audited, nothing
// changes, and a refusal such as a silence ending in the past shows before anything is done), then applied; the
// dialog says what was done and the list refreshes on the `alerts` signal (and at once, here).
import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { formatAbsolute } from '@/ui/time/format-time.ts';
import { WriteGate, type WriteAccess } from './alerting-parts.tsx';

type AlertRow = RouterOutputs['alerting']['list']['items'][number];
type Action = 'acknowledge' | 'silence' | 'unsilence';

const SILENCE_FOR = [
  { value: '1h', label: '1 hour', ms: 3_600_000 },
  { value: '4h', label: '4 hours', ms: 4 * 3_600_000 },
  { value: '24h', label: '24 hours', ms: 24 * 3_600_000 },
  { value: 'until', label: 'Until…', ms: 0 },
] as const;

/** `datetime-local` wants the viewer's local time without a zone. */
function localInputValue(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

function useRefreshAlerts() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.firingByCluster.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.transitions.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.deliveries.queryKey() });
  };
}

interface SimpleAction {
  readonly title: string;
  readonly text: ReactNode;
  readonly button: string;
  readonly previewText: (alert: AlertRow) => string;
  readonly doneTitle: string;
  readonly doneText: (alert: AlertRow) => string;
}

const SIMPLE: Record<'acknowledge' | 'unsilence', SimpleAction> = {
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

/** Acknowledge or unsilence: nothing to fill in, a preview, then the action. */
function SimpleDialog({
  alert,
  action,
  onClose,
}: {
  alert: AlertRow;
  action: 'acknowledge' | 'unsilence';
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
          <Alert variant="light" color="teal" title={spec.doneTitle} data-testid="action-done">
            {spec.doneText(apply.data)}
          </Alert>
        )}
        {apply.data && (
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}

function SilenceDialog({ alert, onClose }: { alert: AlertRow; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshAlerts();
  const [span, setSpan] = useState<(typeof SILENCE_FOR)[number]['value']>('1h');
  const [custom, setCustom] = useState(() => localInputValue(new Date(Date.now() + 2 * 3_600_000)));
  const [reason, setReason] = useState('');
  const preview = useMutation(trpc.alerting.silence.mutationOptions());
  const apply = useMutation(trpc.alerting.silence.mutationOptions({ onSuccess: refresh }));
  const chosen = SILENCE_FOR.find((option) => option.value === span);
  const valid = (span !== 'until' || !Number.isNaN(new Date(custom).getTime())) && reason.trim().length > 0;
  // A span counts from the press of the button, not from when the dialog opened.
  const untilOf = () => (span === 'until' ? new Date(custom) : new Date(Date.now() + (chosen?.ms ?? 0)));
  const [previewedUntil, setPreviewedUntil] = useState<Date | undefined>(undefined);
  const input = () => ({ id: alert.id, until: untilOf().toISOString(), reason: reason.trim() });
  return (
    <Modal opened onClose={onClose} title={`Silence ${alert.rule}`} size="lg" data-testid="silence-dialog">
      <Stack gap="sm">
        <Text size="sm">
          Until then, <strong>{alert.subject}</strong>’s transitions notify no channel. The alert still fires and
          resolves here.
        </Text>
        <fieldset disabled={Boolean(apply.data)} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            <SegmentedControl
              value={span}
              onChange={(value) => {
                setSpan(value);
                preview.reset();
              }}
              data={SILENCE_FOR.map(({ value, label }) => ({ value, label }))}
              aria-label="Silence for"
            />
            {span === 'until' && (
              <TextInput
                type="datetime-local"
                label="Until (your time)"
                value={custom}
                onChange={(event) => {
                  setCustom(event.currentTarget.value);
                  preview.reset();
                }}
              />
            )}
            <Textarea
              label="Reason"
              required
              placeholder="Maintenance window, known issue…"
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                preview.reset();
              }}
            />
          </Stack>
        </fieldset>
        {!apply.data && (
          <Group>
            <Button
              variant="default"
              disabled={!valid}
              loading={preview.isPending}
              onClick={() => {
                const asked = input();
                setPreviewedUntil(new Date(asked.until));
                preview.mutate({ ...asked, dryRun: true });
              }}
            >
              Preview
            </Button>
            <Button disabled={!valid} loading={apply.isPending} onClick={() => apply.mutate(input())}>
              Silence
            </Button>
          </Group>
        )}
        {preview.data && !apply.data && (
          <Alert variant="light" color="blue" data-testid="action-preview">
            Dry run: it would be silenced until {previewedUntil ? formatAbsolute(previewedUntil) : '—'}, because “
            {reason.trim()}”.
          </Alert>
        )}
        {(preview.error ?? apply.error) && <ProblemView error={preview.error ?? apply.error} />}
        {apply.data && (
          <Alert variant="light" color="teal" title="Silenced" data-testid="action-done">
            Silenced until {apply.data.silencedUntil ? formatAbsolute(new Date(apply.data.silencedUntil)) : '—'}.
          </Alert>
        )}
        {apply.data && (
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}

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
        <SimpleDialog alert={alert} action={open} onClose={() => setOpen(undefined)} />
      )}
      {open === 'silence' && <SilenceDialog alert={alert} onClose={() => setOpen(undefined)} />}
    </Group>
  );
}
