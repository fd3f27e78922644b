import { describe, expect, it } from 'vitest';
import { advance, isAfter, selectorAfter, START } from './high-water-mark.ts';

describe('a sampler’s high-water mark', () => {
  it('takes everything at the start and nothing older than the mark after', () => {
    expect(selectorAfter(START)).toBeUndefined();
    const mark = advance(START, 1_000, '17');
    expect(selectorAfter(mark)).toBe('AMQTimestamp >= 1000');
    expect(isAfter(mark, 999, '99')).toBe(false);
    expect(isAfter(mark, 1_001, '1')).toBe(true);
  });

  it('orders messages of one millisecond by id, as integers beyond 2^53', () => {
    const mark = advance(START, 5, '9007199254740993');
    expect(isAfter(mark, 5, '9007199254740992')).toBe(false);
    expect(isAfter(mark, 5, '9007199254740993')).toBe(false);
    expect(isAfter(mark, 5, '9007199254740994')).toBe(true);
    expect(advance(mark, 5, '1')).toBe(mark);
  });

  it('treats a restarted mark (no id known) as taking the whole millisecond again', () => {
    const mark = { timestamp: 5, messageId: null };
    expect(isAfter(mark, 5, '1')).toBe(true);
  });
});
