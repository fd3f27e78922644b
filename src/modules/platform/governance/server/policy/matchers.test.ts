// The policy's matchers: names any case with `*`, addresses by Artemis's words (`*` one word, `#` any number, none
// too), document paths with `*` and `**` — and hostile patterns against long subjects answered at once (they were
// regular expressions that backtracked, or a recursion over every split).
import { describe, expect, it } from 'vitest';
import { addressMatcher, nameMatcher, pathMatches, pathPattern } from './matchers.ts';

describe('policy matchers', () => {
  it('match names in any case with * for any characters', () => {
    expect(nameMatcher('X-*-Id')('x-card-id')).toBe(true);
    expect(nameMatcher('pan')('PAN')).toBe(true);
    expect(nameMatcher('pan')('pans')).toBe(false);
    expect(nameMatcher('a.b')('axb')).toBe(false); // a dot is a dot, not a regex wildcard
    expect(nameMatcher('*')('')).toBe(true);
  });

  it('match addresses by words: * one word, # any number of words, none included', () => {
    const match = (pattern: string, address: string) => addressMatcher(pattern)(address);
    expect(match('orders.#', 'orders')).toBe(true);
    expect(match('orders.#', 'orders.eu.paris')).toBe(true);
    expect(match('orders.#', 'ordersx')).toBe(false);
    expect(match('orders.*', 'orders.eu')).toBe(true);
    expect(match('orders.*', 'orders')).toBe(false);
    expect(match('orders.*', 'orders.eu.paris')).toBe(false);
    expect(match('#.dlq', 'dlq')).toBe(true);
    expect(match('#.dlq', 'a.b.dlq')).toBe(true);
    expect(match('*.dlq', 'dlq')).toBe(false);
    expect(match('a.#.z', 'a.z')).toBe(true);
    expect(match('a.#.z', 'a.b.c.z')).toBe(true);
    expect(addressMatcher('orders')(undefined)).toBe(false);
    expect(addressMatcher(undefined)(undefined)).toBe(true);
  });

  it('match paths with * one segment and ** any number', () => {
    expect(pathMatches(pathPattern('json-path', '$..card'), ['a', 'b', 'card'])).toBe(true);
    expect(pathMatches(pathPattern('json-path', '$.a[*].pan'), ['a', '3', 'pan'])).toBe(true);
    expect(pathMatches(pathPattern('json-path', '$.a.pan'), ['a', 'b', 'pan'])).toBe(false);
    expect(pathMatches(pathPattern('xml-path', '//pan'), ['order', 'pan'])).toBe(true);
  });

  it('answer hostile patterns against long subjects at once', () => {
    const started = performance.now();
    const longName = 'a'.repeat(255);
    const longAddress = Array.from({ length: 200 }, () => 'a').join('.');
    const longPath = [...Array.from({ length: 200 }, () => 'a'), 'b'];
    for (let round = 0; round < 200; round++) {
      expect(nameMatcher(`${'*a'.repeat(40)}*b`)(longName)).toBe(false);
      expect(addressMatcher(`${'#.a.'.repeat(20)}b`)(longAddress)).toBe(false);
      expect(pathMatches([...Array.from({ length: 20 }, () => ['**', 'a']).flat(), 'c', 'b'], longPath)).toBe(false);
    }
    // Linear walks take well under a second for all 600; the old matchers did not finish one of them in minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
