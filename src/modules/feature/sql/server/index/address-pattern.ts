// An Artemis address pattern (`.` between words, `*` one word, `#` any number of words, none included) as SQL over
// message_index.address: equality for a plain name; otherwise a POSIX regular expression, and the pattern's literal
// prefix as a LIKE the (cluster_id, address, message_time) index can range over (address is COLLATE "C"). The
// regular expression is the one the live read matches with (../address-pattern.ts).
import { addressPatternRegex, isWildcard } from '../address-pattern.ts';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The literal words before the first wildcard, with the delimiter after them ('' when the pattern starts wild). */
function literalPrefix(pattern: string): string {
  const words = pattern.split('.');
  const wild = words.findIndex((word) => word === '*' || word === '#');
  return wild <= 0 ? '' : `${words.slice(0, wild).join('.')}.`;
}

/** SQL over `column` for the pattern; `param` binds a value and answers its placeholder. */
export function addressCondition(column: string, pattern: string, param: (value: unknown) => string): string {
  if (!isWildcard(pattern)) return `${column} = ${param(pattern)}`;
  const conditions = [`${column} ~ ${param(addressPatternRegex(pattern))}`];
  const prefix = literalPrefix(pattern);
  // `orders.#` also matches `orders` itself (zero words), which the prefix `orders.` would exclude.
  const rest = pattern.slice(prefix.length).split('.');
  const matchesBare = rest.every((word) => word === '#');
  if (prefix !== '' && !matchesBare) conditions.push(`${column} LIKE ${param(`${escapeLike(prefix)}%`)}`);
  return conditions.join(' AND ');
}
