// How given limits combine with the defaults (limits.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLUGIN_LIMITS, effectiveLimits } from './limits.ts';

describe('effectiveLimits', () => {
  it('takes the defaults for what is missing or undefined, and ignores keys that are no limit', () => {
    const given = { memoryMb: 64, rssMb: undefined, colour: 'blue' } as Parameters<typeof effectiveLimits>[0];
    expect(effectiveLimits(given)).toEqual({ ...DEFAULT_PLUGIN_LIMITS, memoryMb: 64 });
  });

  it('refuses a limit that is not a positive number', () => {
    expect(() => effectiveLimits({ cpuMsPerMinute: 0 })).toThrow(/cpuMsPerMinute must be a positive number, not 0/);
    expect(() => effectiveLimits({ memoryMb: Number.NaN })).toThrow(/memoryMb/);
  });
});
