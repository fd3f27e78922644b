// The FROM of a query: an address name or an Artemis wildcard pattern, where `*` stands for one dot-separated word and
// `#` for any number of them (`orders.*`, `orders.#`). A wildcard inside a word would be taken literally by the broker.
import type { QueryText } from './query-text.ts';

const MAX_PATTERN_LENGTH = 255;

export function addressPatternOf(written: string, query: QueryText, from: number): string {
  const pattern = written.trim();
  if (pattern === '')
    return query.fail('FROM names an address or a pattern, e.g. FROM "orders.*"', undefined, from + 1);
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return query.fail(`An address pattern is at most ${MAX_PATTERN_LENGTH} characters`, written, from);
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(pattern)) {
    return query.fail('An address pattern has no spaces or control characters', written, from);
  }
  const words = pattern.split('.');
  if (words.some((word) => word === '')) {
    return query.fail(`"${pattern}" has an empty word between dots`, written, from);
  }
  if (words.some((word) => word.length > 1 && /[*#]/.test(word))) {
    return query.fail(
      `In "${pattern}" a wildcard is a whole word: orders.* or orders.#, not orders.ord*`,
      written,
      from,
    );
  }
  return pattern;
}
