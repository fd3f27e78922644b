import { describe, expect, it } from 'vitest';
import { isoOfLocalInput, localInputOfIso } from './datetime-local.ts';

describe('datetime-local fields', () => {
  it('reads back the minute it wrote, in the viewer’s zone', () => {
    const iso = isoOfLocalInput('2026-11-28T09:30');
    expect(iso).toBe(new Date(2026, 10, 28, 9, 30).toISOString());
    expect(localInputOfIso(iso)).toBe('2026-11-28T09:30');
  });

  it('takes an empty field as no bound, and no bound as an empty field', () => {
    expect(isoOfLocalInput('')).toBeUndefined();
    expect(localInputOfIso(undefined)).toBe('');
  });
});
