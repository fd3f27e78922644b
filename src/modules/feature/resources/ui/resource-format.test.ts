// The resource tables' numbers: thousands grouped, bytes in a short unit, a dash for nothing.
import { describe, expect, it } from 'vitest';
import { bytes, count, dash } from './resource-format.ts';

describe('resource format', () => {
  it('groups thousands', () => {
    expect(count(1234567)).toBe('1,234,567');
  });

  it('writes bytes in B, KiB or MiB', () => {
    expect([0, 1023, 1024, 1536, 1_048_576, 5_767_168].map(bytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '1.5 KiB',
      '1.0 MiB',
      '5.5 MiB',
    ]);
  });

  it('writes a dash for an absent value', () => {
    expect(dash(null)).toBe('—');
    expect(dash('client-1')).toBe('client-1');
  });
});
