// Which addresses a name covers, as the broker decides it: an Artemis wildcard pattern (address settings, the graph's
// filter) and a cluster connection's address list. Pure: the screens use it as well.

const WORD_SEPARATOR = '.';

function wordsMatch(pattern: readonly string[], words: readonly string[], at: number, from: number): boolean {
  if (at === pattern.length) return from === words.length;
  const word = pattern[at];
  if (word === '#') {
    for (let next = from; next <= words.length; next += 1) if (wordsMatch(pattern, words, at + 1, next)) return true;
    return false;
  }
  if (from === words.length) return false;
  return (word === '*' || word === words[from]) && wordsMatch(pattern, words, at + 1, from + 1);
}

/**
 * Whether `address` matches the Artemis wildcard `pattern`: words separated by `.`, `*` one word, `#` zero or more
 * words (`orders.#` matches `orders` and `orders.eu.north`). A pattern without wildcards matches itself only.
 */
export function matchesAddress(pattern: string, address: string): boolean {
  if (pattern === address) return true;
  if (!pattern.includes('#') && !pattern.includes('*')) return false;
  // Consecutive `#` mean what one does; folding them keeps the search linear in practice.
  const words = pattern.split(WORD_SEPARATOR).filter((word, index, all) => !(word === '#' && all[index - 1] === '#'));
  return wordsMatch(words, address.split(WORD_SEPARATOR), 0, 0);
}

/**
 * Whether a cluster connection whose `address` is `spec` balances `address`: the spec is a comma-separated list of
 * prefixes, those starting with `!` excluded; no prefix left (or the empty spec) covers every address not excluded.
 */
export function coveredByClusterConnection(spec: string, address: string): boolean {
  const entries = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const excluded = entries.filter((entry) => entry.startsWith('!')).map((entry) => entry.slice(1));
  if (excluded.some((prefix) => address.startsWith(prefix))) return false;
  const included = entries.filter((entry) => !entry.startsWith('!'));
  return included.length === 0 || included.some((prefix) => address.startsWith(prefix));
}
