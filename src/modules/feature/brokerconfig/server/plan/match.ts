// Artemis' wildcard matches (findings §5; Match.java and HierarchicalObjectRepository.MatchComparator): `.` separates
// words, `*` is exactly one word, `#` zero or more words (so `orders.#` also covers `orders`). The most specific match
// wins: for security settings it supplies every permission (nothing is inherited), for address settings it is the
// first one the field-by-field merge looks at.
const DELIMITER = '.';

function wordsMatch(pattern: readonly string[], words: readonly string[]): boolean {
  const [head, ...rest] = pattern;
  if (head === undefined) return words.length === 0;
  if (head === '#') return rest.length === 0 || words.some((_w, i) => wordsMatch(rest, words.slice(i)));
  const [word, ...others] = words;
  if (word === undefined) return false;
  return (head === '*' || head === word) && wordsMatch(rest, others);
}

/** Whether `pattern` covers the address (or any text the broker is asked about: a match read at a match). */
export function matches(pattern: string, address: string): boolean {
  if (pattern === address) return true;
  return wordsMatch(pattern.split(DELIMITER), address.split(DELIMITER));
}

const hasAny = (pattern: string) => pattern.includes('#');
const hasSingle = (pattern: string) => pattern.includes('*');

/** MatchComparator: negative when `a` is more specific. Ties fall back to the text, so the order is total. */
export function compareSpecificity(a: string, b: string): number {
  if (hasAny(a) !== hasAny(b)) return hasAny(a) ? 1 : -1;
  if (hasAny(a)) return b.length - a.length || a.localeCompare(b);
  if (hasSingle(a) !== hasSingle(b)) return hasSingle(a) ? 1 : -1;
  if (hasSingle(a)) {
    const [left, right] = [a.split(DELIMITER), b.split(DELIMITER)];
    for (let i = 0; i < left.length; i++) {
      if (i >= right.length) return -1;
      if (left[i] === '*' && right[i] !== '*') return 1;
      if (left[i] !== '*' && right[i] === '*') return -1;
    }
  }
  return a.length - b.length || a.localeCompare(b);
}

/** The patterns covering the address, most specific first (an exact match always comes first). */
export function coveringInOrder(patterns: Iterable<string>, address: string): string[] {
  const covering = [...new Set(patterns)].filter((pattern) => matches(pattern, address));
  return covering.sort((a, b) => (a === address ? -1 : b === address ? 1 : compareSpecificity(a, b)));
}

/** The single most specific pattern covering the address, or undefined when none does. */
export function mostSpecific(patterns: Iterable<string>, address: string): string | undefined {
  return coveringInOrder(patterns, address)[0];
}
