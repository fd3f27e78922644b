// An `<input type="datetime-local">` speaks the viewer's local time without a zone; the API speaks ISO 8601 with
// one. The two conversions in one place, so every time field of the console reads and writes the same instant.

/** `2026-11-28T09:30` in the viewer's zone → ISO 8601 (UTC); an empty field is no bound. */
export const isoOfLocalInput = (local: string): string | undefined =>
  local ? new Date(local).toISOString() : undefined;

/** ISO 8601 → what a `datetime-local` field shows for it, to the minute, in the viewer's zone. */
export function localInputOfIso(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
