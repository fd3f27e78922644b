import { describe, expect, it } from 'vitest';
import { compareSpecificity, coveringInOrder, matches, mostSpecific } from './match.ts';

describe('matches', () => {
  it.each([
    ['#', 'orders', true],
    ['#', 'orders.eu.new', true],
    ['orders', 'orders', true],
    ['orders', 'orders.eu', false],
    ['orders.*', 'orders.eu', true],
    ['orders.*', 'orders', false],
    ['orders.*', 'orders.eu.new', false],
    ['orders.#', 'orders', true],
    ['orders.#', 'orders.eu', true],
    ['orders.#', 'orders.eu.new', true],
    ['orders.#', 'ordersx', false],
    ['orders.#', 'billing.orders', false],
    ['*.new', 'orders.new', true],
    ['*.new', 'new', false],
    ['orders.*.new', 'orders.eu.new', true],
    ['orders.*.new', 'orders.new', false],
    ['orders.*.#', 'orders.eu', true],
    ['orders.*.#', 'orders', false],
    // A match is also read as text: `*` covers the word `#` (findings §5: reading `orders.#` showed `orders.*`).
    ['orders.*', 'orders.#', true],
    ['*', '#', true],
    ['orders.eu.#', 'orders.#', false],
  ])('%s covers %s: %s', (pattern, address, expected) => {
    expect(matches(pattern, address)).toBe(expected);
  });
});

describe('match precedence', () => {
  it('puts the exact match first, then no-# before #', () => {
    expect(coveringInOrder(['#', 'orders.#', 'orders.*', 'orders.eu'], 'orders.eu')).toEqual([
      'orders.eu',
      'orders.*',
      'orders.#',
      '#',
    ]);
  });

  it('orders two # matches longer first', () => {
    expect(mostSpecific(['#', 'orders.#', 'orders.eu.#'], 'orders.eu.new')).toBe('orders.eu.#');
    expect(compareSpecificity('orders.#', 'orders.eu.#')).toBeGreaterThan(0);
  });

  it('puts a match without * before one with *', () => {
    expect(mostSpecific(['orders.*', 'orders.eu'], 'orders.eu')).toBe('orders.eu');
    expect(compareSpecificity('a.b', 'a.*')).toBeLessThan(0);
  });

  it('between two * matches, the first position holding * loses', () => {
    expect(mostSpecific(['*.eu.new', 'orders.*.new'], 'orders.eu.new')).toBe('orders.*.new');
    expect(mostSpecific(['orders.*.*', 'orders.eu.*'], 'orders.eu.new')).toBe('orders.eu.*');
  });

  it('gives no match for an address nothing covers', () => {
    expect(mostSpecific(['orders.#'], 'billing')).toBeUndefined();
  });

  it('is a total order: ties fall back to the text', () => {
    expect(coveringInOrder(['b.*', 'a.*'], 'a.b')).toEqual(['a.*']);
    expect(compareSpecificity('x.*', 'y.*')).toBeLessThan(0);
  });
});
