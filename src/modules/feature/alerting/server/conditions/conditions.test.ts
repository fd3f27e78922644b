// The pure parts of the alert conditions: comparisons, growth over a window, and when a capability counts as lost.
import { describe, expect, it } from 'vitest';
import { isLost } from './capability-lost.ts';
import { compare, growthOf } from './queue-numbers.ts';

describe('queue numbers', () => {
  it('compare with each operator, the threshold itself included only by >= and <=', () => {
    expect([compare(10, '>', 10), compare(10, '>=', 10), compare(10, '<', 10), compare(10, '<=', 10)]).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect([compare(11, '>', 10), compare(9, '<', 10)]).toEqual([true, true]);
  });

  it('measure growth as the depth at the end minus at the start, unknown with fewer than two samples', () => {
    expect(growthOf({ samples: 5, depthAtStart: 10, depthAtEnd: 25 })).toBe(15);
    expect(growthOf({ samples: 5, depthAtStart: 25, depthAtEnd: 10 })).toBe(-15);
    expect(growthOf({ samples: 1, depthAtStart: 10, depthAtEnd: 25 })).toBeNull();
    expect(growthOf({ samples: 3, depthAtStart: null, depthAtEnd: 25 })).toBeNull();
  });
});

describe('a lost capability', () => {
  const at = '2026-11-26T12:00:00.000Z';
  it('is one not AVAILABLE that has been, whatever it is now', () => {
    expect(isLost({ capability: 'NOTIFICATIONS', value: 'UNAVAILABLE', availableAt: at })).toBe(true);
    expect(isLost({ capability: 'NOTIFICATIONS', value: 'UNKNOWN', availableAt: at })).toBe(true);
  });

  it('is not one never available (refused since registration), nor one available now', () => {
    expect(isLost({ capability: 'MESSAGE_IO', value: 'UNAVAILABLE', availableAt: null })).toBe(false);
    expect(isLost({ capability: 'MESSAGE_IO', value: 'UNKNOWN', availableAt: null })).toBe(false);
    expect(isLost({ capability: 'MESSAGE_IO', value: 'AVAILABLE', availableAt: at })).toBe(false);
  });
});
