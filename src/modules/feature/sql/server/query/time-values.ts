// Instants in a query: an ISO-8601 string, timestamp '…', '…'::timestamptz, now(), or now() ± interval '1 hour'.
// Every one is resolved at parse time (with the `now` the caller passes) to an ISO string with millisecond precision,
// the form rows carry, so every source compares the same instant.

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

/** The ISO form of an instant written as a string, or undefined when it is not one. */
export function isoInstant(text: string): string | undefined {
  const trimmed = text.trim();
  if (!ISO_INSTANT.test(trimmed)) return undefined;
  // A time without a zone is UTC: the service runs in many zones, the brokers' timestamps are UTC.
  const zoned = /[T ]\d{2}:\d{2}/.test(trimmed) && !/(Z|[+-]\d{2}(:?\d{2})?)$/.test(trimmed) ? `${trimmed}Z` : trimmed;
  const millis = Date.parse(zoned.replace(' ', 'T'));
  return Number.isNaN(millis) ? undefined : new Date(millis).toISOString();
}

const UNIT_MILLIS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(ms|msecs?|milliseconds?)$/, 1],
  [/^(s|secs?|seconds?)$/, 1_000],
  [/^(m|mins?|minutes?)$/, 60_000],
  [/^(h|hrs?|hours?)$/, 3_600_000],
  [/^(d|days?)$/, 86_400_000],
  [/^(w|weeks?)$/, 604_800_000],
];

/**
 * An interval's length in milliseconds: `'1 hour'`, `'90 minutes'`, `'1 day 2 hours'`, or `'1'` with the unit
 * outside (`interval '1' hour`). Months and years are refused: their length depends on the calendar.
 */
export function intervalMillis(text: string, unitOutside: string): number | undefined {
  const parts = `${text} ${unitOutside}`.trim().toLowerCase().split(/\s+/);
  if (parts.length < 2 || parts.length % 2 !== 0) return undefined;
  let total = 0;
  for (let index = 0; index < parts.length; index += 2) {
    const amount = Number(parts[index]);
    const unit = UNIT_MILLIS.find(([pattern]) => pattern.test(parts[index + 1] ?? ''));
    if (!Number.isFinite(amount) || amount < 0 || !unit) return undefined;
    total += amount * unit[1];
  }
  return total;
}
