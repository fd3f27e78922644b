// The state behind the silence dialog: the span or end picked, the reason, and the preview and apply calls. Any
// edit drops the preview, which described the silence as it was.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { AlertRow } from './alert-row.ts';
import { isSilenceReady, localInputValue, silenceUntil, type SilenceSpan } from './silence-span.ts';
import { useRefreshAlerts } from './use-refresh-alerts.ts';

const DEFAULT_CUSTOM_MS = 2 * 3_600_000;

export function useSilenceDraft(alert: AlertRow) {
  const trpc = useTRPC();
  const refresh = useRefreshAlerts();
  const [span, setSpan] = useState<SilenceSpan>('1h');
  const [custom, setCustom] = useState(() => localInputValue(new Date(Date.now() + DEFAULT_CUSTOM_MS)));
  const [reason, setReason] = useState('');
  const preview = useMutation(trpc.alerting.silence.mutationOptions());
  const apply = useMutation(trpc.alerting.silence.mutationOptions({ onSuccess: refresh }));
  const [previewedUntil, setPreviewedUntil] = useState<Date | undefined>(undefined);
  // A span counts from the press of the button, not from when the dialog opened.
  const input = () => ({
    id: alert.id,
    until: silenceUntil(span, custom, Date.now()).toISOString(),
    reason: reason.trim(),
  });
  const edited =
    <Value>(set: (value: Value) => void) =>
    (value: Value) => {
      set(value);
      preview.reset();
    };
  return {
    span,
    custom,
    reason,
    ready: isSilenceReady(span, custom, reason),
    preview,
    apply,
    previewedUntil,
    setSpan: edited(setSpan),
    setCustom: edited(setCustom),
    setReason: edited(setReason),
    runPreview: () => {
      const asked = input();
      setPreviewedUntil(new Date(asked.until));
      preview.mutate({ ...asked, dryRun: true });
    },
    runApply: () => apply.mutate(input()),
  };
}
