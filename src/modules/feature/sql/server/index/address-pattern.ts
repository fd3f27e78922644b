// An Artemis address pattern (`.` between words, `*` one word, `#` any number of words, none included) as SQL over
// message_index.address: equality for a plain name; otherwise a POSIX regular expression, and the pattern's literal
// prefix as a LIKE the (cluster_id, address, message_time) index can range over (address is COLLATE "C").

/** Every character that is not a letter, digit or underscore, escaped for a POSIX regular expression. */
function escapeRegex(word: string): string {
  return word.replace(/[^A-Za-z0-9_]/g, (character) => `\\${character}`);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function hasWildcards(pattern: string): boolean {
  return pattern.split('.').some((word) => word === '*' || word === '#');
}

/** The anchored regular expression an address matches when it matches the pattern. */
function addressRegex(pattern: string): string {
  const words = pattern.split('.');
  let regex = '';
  let afterWord = false;
  words.forEach((word, index) => {
    if (word === '#') {
      if (afterWord) regex += '(\\.[^.]+)*';
      else if (index === words.length - 1) regex += '.*';
      else regex += '([^.]+\\.)*';
      return;
    }
    if (afterWord) regex += '\\.';
    regex += word === '*' ? '[^.]+' : escapeRegex(word);
    afterWord = true;
  });
  return `^${regex}$`;
}

/** The literal words before the first wildcard, with the delimiter after them ('' when the pattern starts wild). */
function literalPrefix(pattern: string): string {
  const words = pattern.split('.');
  const wild = words.findIndex((word) => word === '*' || word === '#');
  return wild <= 0 ? '' : `${words.slice(0, wild).join('.')}.`;
}

/** SQL over `column` for the pattern; `param` binds a value and answers its placeholder. */
export function addressCondition(column: string, pattern: string, param: (value: unknown) => string): string {
  if (!hasWildcards(pattern)) return `${column} = ${param(pattern)}`;
  const conditions = [`${column} ~ ${param(addressRegex(pattern))}`];
  const prefix = literalPrefix(pattern);
  // `orders.#` also matches `orders` itself (zero words), which the prefix `orders.` would exclude.
  const rest = pattern.slice(prefix.length).split('.');
  const matchesBare = rest.every((word) => word === '#');
  if (prefix !== '' && !matchesBare) conditions.push(`${column} LIKE ${param(`${escapeLike(prefix)}%`)}`);
  return conditions.join(' AND ');
}
