import { describe, expect, it } from 'vitest';
import { addressMatcher, addressPatternRegex, isWildcard } from './address-pattern.ts';

const cases: Array<[pattern: string, matches: string[], misses: string[]]> = [
  ['orders', ['orders'], ['orders.eu', 'xorders', 'order']],
  ['orders.*', ['orders.eu', 'orders.us'], ['orders', 'orders.eu.paid', 'ordersXeu']],
  ['orders.#', ['orders', 'orders.eu', 'orders.eu.paid'], ['ordersX', 'x.orders', 'orders-eu']],
  ['#.paid', ['paid', 'orders.paid', 'orders.eu.paid'], ['orders.paid.x', 'unpaid']],
  ['orders.#.paid', ['orders.paid', 'orders.eu.paid', 'orders.eu.de.paid'], ['orders.eu', 'orders.eupaid']],
  ['#', ['a', 'a.b.c', 'flotilla.capture.x'], []],
  ['a+b.(c)', ['a+b.(c)'], ['aab.(c)', 'a+b.c']],
];

describe('addressPatternRegex', () => {
  it.each(cases)('%s matches what Artemis would route', (pattern, matches, misses) => {
    const matcher = addressMatcher(pattern);
    for (const address of matches) expect(matcher(address), address).toBe(true);
    for (const address of misses) expect(matcher(address), address).toBe(false);
  });

  it('escapes every regular-expression character of a literal word', () => {
    expect(addressPatternRegex('a$b')).toBe('^a\\$b$');
  });

  it('tells a wildcard pattern from a plain address', () => {
    expect(isWildcard('orders.*')).toBe(true);
    expect(isWildcard('orders.#')).toBe(true);
    expect(isWildcard('orders.eu')).toBe(false);
    expect(isWildcard('orders*')).toBe(false);
  });
});
