'use client';
// Silence an alert for a span or until a time, with a reason: previewed (the API's dry run, which also refuses an
// end in the past), then applied.
import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { formatAbsolute } from '@/ui/time/format-time.ts';
import { ActionDone } from './action-done.tsx';
import type { AlertRow } from './alert-row.ts';
import { SILENCE_FOR } from './silence-span.ts';
import { useSilenceDraft } from './use-silence-draft.ts';

export function SilenceDialog({ alert, onClose }: { alert: AlertRow; onClose: () => void }) {
  const draft = useSilenceDraft(alert);
  const { preview, apply } = draft;
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
              value={draft.span}
              onChange={draft.setSpan}
              data={SILENCE_FOR.map(({ value, label }) => ({ value, label }))}
              aria-label="Silence for"
            />
            {draft.span === 'until' && (
              <TextInput
                type="datetime-local"
                label="Until (your time)"
                value={draft.custom}
                onChange={(event) => draft.setCustom(event.currentTarget.value)}
              />
            )}
            <Textarea
              label="Reason"
              required
              placeholder="Maintenance window, known issue…"
              value={draft.reason}
              onChange={(event) => draft.setReason(event.currentTarget.value)}
            />
          </Stack>
        </fieldset>
        {!apply.data && (
          <Group>
            <Button variant="default" disabled={!draft.ready} loading={preview.isPending} onClick={draft.runPreview}>
              Preview
            </Button>
            <Button disabled={!draft.ready} loading={apply.isPending} onClick={draft.runApply}>
              Silence
            </Button>
          </Group>
        )}
        {preview.data && !apply.data && (
          <Alert variant="light" color="blue" data-testid="action-preview">
            Dry run: it would be silenced until {draft.previewedUntil ? formatAbsolute(draft.previewedUntil) : '—'},
            because “{draft.reason.trim()}”.
          </Alert>
        )}
        {(preview.error ?? apply.error) && <ProblemView error={preview.error ?? apply.error} />}
        {apply.data && (
          <ActionDone title="Silenced" onClose={onClose}>
            Silenced until {apply.data.silencedUntil ? formatAbsolute(new Date(apply.data.silencedUntil)) : '—'}.
          </ActionDone>
        )}
      </Stack>
    </Modal>
  );
}
