// Sharing the clusters out between workers: up to a fair share each, orphans taken by anyone, surplus handed back
// only after it lasts.
import { describe, expect, it } from 'vitest';
import { decideOwnership, fairShare, HAND_BACK_AFTER_PASSES, type OwnershipView } from './fair-share.ts';

const view = (patch: Partial<OwnershipView>): OwnershipView => ({
  owned: [],
  unowned: [],
  freeLastPass: new Set(),
  clusters: 3,
  liveWorkers: 3,
  overSharePasses: 0,
  ...patch,
});

describe('fair share', () => {
  it('is the clusters over the live workers, rounded up, and everything for a worker alone', () => {
    expect(fairShare(3, 3)).toBe(1);
    expect(fairShare(4, 3)).toBe(2);
    expect(fairShare(5, 0)).toBe(5); // its own report not written yet
    expect(fairShare(0, 2)).toBe(0);
  });

  it('claims free clusters up to the share', () => {
    expect(decideOwnership(view({ unowned: ['a', 'b', 'c'] })).claim).toEqual(['a']);
    expect(decideOwnership(view({ owned: ['a'], unowned: ['b', 'c'] })).claim).toEqual([]);
    expect(decideOwnership(view({ liveWorkers: 1, unowned: ['a', 'b', 'c'] })).claim).toEqual(['a', 'b', 'c']);
  });

  it('takes a cluster left free for a whole pass, even at its share (its owner died, still counted live)', () => {
    const decided = decideOwnership(view({ owned: ['a'], unowned: ['b', 'c'], freeLastPass: new Set(['c']) }));
    expect(decided.claim).toEqual(['c']);
  });

  it('hands its newest clusters back only after being over its share for several passes', () => {
    let passes = 0;
    const owned = ['a', 'b', 'c'];
    for (let pass = 1; pass < HAND_BACK_AFTER_PASSES; pass++) {
      const decided = decideOwnership(view({ owned, overSharePasses: passes }));
      expect(decided.handBack).toEqual([]);
      passes = decided.overSharePasses;
    }
    const decided = decideOwnership(view({ owned, overSharePasses: passes }));
    expect(decided).toEqual({ handBack: ['b', 'c'], claim: [], overSharePasses: 0 });
    // Back at its share, the count starts again.
    expect(decideOwnership(view({ owned: ['a'], overSharePasses: 2 })).overSharePasses).toBe(0);
  });
});
