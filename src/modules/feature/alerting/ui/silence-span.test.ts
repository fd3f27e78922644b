// A silence's end: a span from the press of the button, or the viewer's own time; ready with a reason.
import { describe, expect, it } from 'vitest';
import { isSilenceReady, localInputValue, silenceUntil } from './silence-span.ts';

const now = Date.parse('2026-11-28T01:00:00Z');

describe('silence span', () => {
  it('counts a span from now', () => {
    expect(silenceUntil('1h', '', now).toISOString()).toBe('2026-11-28T02:00:00.000Z');
    expect(silenceUntil('24h', '', now).toISOString()).toBe('2026-11-29T01:00:00.000Z');
  });

  it('reads an end in the viewer’s own time, as the datetime-local input writes it', () => {
    const end = new Date(now + 3 * 3_600_000);
    expect(silenceUntil('until', localInputValue(end), now).getTime()).toBe(end.getTime());
  });

  it('is ready with a reason and, for an end, a time that parses', () => {
    expect(isSilenceReady('1h', '', 'maintenance')).toBe(true);
    expect(isSilenceReady('1h', '', '  ')).toBe(false);
    expect(isSilenceReady('until', 'not a time', 'maintenance')).toBe(false);
    expect(isSilenceReady('until', '2026-11-28T05:00', 'maintenance')).toBe(true);
  });
});
