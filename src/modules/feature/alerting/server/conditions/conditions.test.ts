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
  it('is one that was AVAILABLE and is not any more, or one already alerted on that has not come back', () => {
    expect(isLost({ capability: 'NOTIFICATIONS', value: 'UNAVAILABLE', before: 'AVAILABLE' }, false)).toBe(true);
    expect(isLost({ capability: 'NOTIFICATIONS', value: 'UNKNOWN', before: 'AVAILABLE' }, false)).toBe(true);
    expect(isLost({ capability: 'NOTIFICATIONS', value: 'UNAVAILABLE', before: 'UNAVAILABLE' }, true)).toBe(true);
  });

  it('is not one never available (refused since registration, or first seen unavailable), nor one back', () => {
    expect(isLost({ capability: 'MESSAGE_IO', value: 'UNAVAILABLE', before: 'UNAVAILABLE' }, false)).toBe(false);
    expect(isLost({ capability: 'MESSAGE_IO', value: 'UNAVAILABLE', before: undefined }, false)).toBe(false);
    expect(isLost({ capability: 'MESSAGE_IO', value: 'AVAILABLE', before: 'UNAVAILABLE' }, true)).toBe(false);
  });
});
