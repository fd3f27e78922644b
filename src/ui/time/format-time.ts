// Times are shown in the viewer's own zone (the browser's), with a relative hint ("3 min ago").

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

export function formatAbsolute(date: Date): string {
  return absolute.format(date);
}

export function formatRelative(date: Date, now: number): string {
  const delta = date.getTime() - now;
  if (Math.abs(delta) < 5_000) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size || unit === 'second') return relative.format(Math.round(delta / size), unit);
  }
  return relative.format(0, 'second');
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
