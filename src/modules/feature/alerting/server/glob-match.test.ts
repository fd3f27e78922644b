import { describe, expect, it } from 'vitest';
import { globMatches } from '@/base/glob-match.ts';
import { subjectPattern } from './subject-pattern.ts';

/** The plain definition, by dynamic programming over both strings: the oracle for small random cases. */
function byDefinition(pattern: string, subject: string): boolean {
  let row = [true, ...Array.from(subject, () => false)];
  for (const wanted of pattern) {
    const next = [wanted === '*' && row[0] === true];
    for (let at = 1; at <= subject.length; at++) {
      next[at] =
        wanted === '*'
          ? row[at] === true || next[at - 1] === true
          : row[at - 1] === true && (wanted === '?' || wanted === subject[at - 1]);
    }
    row = next;
  }
  return row[subject.length] === true;
}

describe('glob matching', () => {
  it('agrees with the definition on every small pattern and name over a few letters', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const word = (letters: string, longest: number) =>
      Array.from(
        { length: Math.floor(random() * (longest + 1)) },
        () => letters[Math.floor(random() * letters.length)],
      ).join('');
    for (let trial = 0; trial < 20_000; trial++) {
      const pattern = word('ab*?.', 7);
      const subject = word('ab.', 9);
      expect(globMatches(pattern, subject), `${pattern} ~ ${subject}`).toBe(byDefinition(pattern, subject));
    }
  });

  it('takes every character but * and ? literally', () => {
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('a+(b)[c]^$\\', 'a+(b)[c]^$\\')).toBe(true);
    expect(globMatches('orders.*', 'orders.eu')).toBe(true);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('?', '')).toBe(false);
  });

  // The case: a backtracking regex of `*a*a*…*b` took 8 s on a 33-character queue name, stalling the process.
  it('matches hostile patterns against long names in linear-ish time: 10,000 matches well under a second', () => {
    const hostile = [
      `${'*a'.repeat(10)}*b`,
      `${'*a'.repeat(50)}*b`,
      `${'?*'.repeat(150)}!`,
      `${'*?'.repeat(149)}*b`,
      `${'a*'.repeat(100)}b`,
    ];
    const names = ['a'.repeat(33), 'a'.repeat(255), `${'a'.repeat(254)}c`, 'ab'.repeat(120)];
    for (const pattern of hostile) {
      const matcher = subjectPattern(pattern);
      const started = performance.now();
      let hits = 0;
      for (let round = 0; round < 10_000; round++) if (matcher.matches(names[round % names.length] as string)) hits++;
      const elapsed = performance.now() - started;
      expect(elapsed, `${pattern.slice(0, 20)}… took ${Math.round(elapsed)} ms`).toBeLessThan(1_000);
      const expected = names.filter((name) => byDefinition(pattern, name)).length * (10_000 / names.length);
      expect(hits, pattern).toBe(expected);
    }
  });
});
