// An Artemis address wildcard (`.` between words, `*` one word, `#` zero or more words) as one anchored regular
// expression that JavaScript and PostgreSQL (`~`, advanced regular expressions) read the same way, so the live read
// (in the service) and the index reader (in SQL) match exactly the same addresses.
const REGEX_SPECIALS = /[.*+?^${}()|[\]\\]/g;

const WORD = '[^.]+';

function literal(word: string): string {
  return word.replace(REGEX_SPECIALS, '\\$&');
}

/** `orders.*` → `^orders\.[^.]+$`; `orders.#` → `^orders(?:\.[^.]+)*$`; a name without wildcards matches itself. */
export function addressPatternRegex(pattern: string): string {
  const words = pattern.split('.');
  if (words.length === 1 && words[0] === '#') return '^.*$';
  let regex = '';
  words.forEach((word, index) => {
    if (word === '#') {
      // Leading: any words, each with its dot; elsewhere: any dot-and-word after the previous word.
      regex += index === 0 ? `(?:${WORD}\\.)*` : `(?:\\.${WORD})*`;
      return;
    }
    const afterLeadingHash = index === 1 && words[0] === '#';
    if (index > 0 && !afterLeadingHash) regex += '\\.';
    regex += word === '*' ? WORD : literal(word);
  });
  return `^${regex}$`;
}

/** Whether the pattern has a wildcard word (else it names one address). */
export function isWildcard(pattern: string): boolean {
  return pattern.split('.').some((word) => word === '*' || word === '#');
}

export function addressMatcher(pattern: string): (address: string) => boolean {
  const regex = new RegExp(addressPatternRegex(pattern));
  return (address) => regex.test(address);
}
