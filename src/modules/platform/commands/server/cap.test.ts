import { describe, expect, it } from 'vitest';
import { capOf, isOverCap } from './cap.ts';

const settings = (cap: number) => ({
  integer: (setting: { key: string } | string) => {
    expect(setting).toMatchObject({ key: 'safety.bulk-cap' });
    return cap;
  },
});

describe('the cap phase', () => {
  it('holds a capped command to safety.bulk-cap and leaves an uncapped one without a cap', () => {
    expect(capOf({ capped: true }, settings(1_000))).toBe(1_000);
    expect(capOf({ capped: false }, settings(1_000))).toBeNull();
  });

  it('refuses only over the cap (not at it), and never with override or without a cap', () => {
    expect(isOverCap(1_000, 1_001, undefined)).toBe(true);
    expect(isOverCap(1_000, 1_001, false)).toBe(true);
    expect(isOverCap(1_000, 1_000, undefined)).toBe(false);
    expect(isOverCap(1_000, 5_000, true)).toBe(false);
    expect(isOverCap(null, 5_000_000, undefined)).toBe(false);
  });
});
