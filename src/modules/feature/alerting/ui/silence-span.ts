// How long a silence lasts: a fixed span counted from the press of the button, or an end the viewer picks in their
// own time. Pure, so the unit test pins it; silence-dialog.tsx draws the choice.
export const SILENCE_FOR = [
  { value: '1h', label: '1 hour', ms: 3_600_000 },
  { value: '4h', label: '4 hours', ms: 4 * 3_600_000 },
  { value: '24h', label: '24 hours', ms: 24 * 3_600_000 },
  { value: 'until', label: 'Until…', ms: 0 },
] as const;

export type SilenceSpan = (typeof SILENCE_FOR)[number]['value'];

/** `datetime-local` wants the viewer's local time without a zone. */
export function localInputValue(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** The silence's end: the picked time for `until`, else now plus the span. */
export function silenceUntil(span: SilenceSpan, custom: string, now: number): Date {
  return span === 'until'
    ? new Date(custom)
    : new Date(now + (SILENCE_FOR.find((option) => option.value === span)?.ms ?? 0));
}

/** A silence needs a reason, and for `until` a time that parses. */
export function isSilenceReady(span: SilenceSpan, custom: string, reason: string): boolean {
  return (span !== 'until' || !Number.isNaN(new Date(custom).getTime())) && reason.trim().length > 0;
}
