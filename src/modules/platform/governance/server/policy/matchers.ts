// Matching names, paths and addresses for the policy's rules. Names (headers, properties) match case-insensitively
// with `*` as a wildcard. JSON paths ($.a.b, $.a[*].b, $.a.*.b, $..b) and XML paths (/a/b, //b, /a/*/b) both become
// a list of segments where `*` is one segment and `**` any number; array indices of a concrete path match `*`.
// Addresses use Artemis's wildcards: words separated by `.`, `*` one word, `#` any number of words.

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function nameMatcher(pattern: string): (name: string) => boolean {
  const regex = new RegExp(`^${escape(pattern).replace(/\*/g, '.*')}$`, 'i');
  return (name) => regex.test(name);
}

export function addressMatcher(pattern: string | undefined): (address: string | undefined) => boolean {
  if (!pattern || pattern === '#') return () => true;
  const words = pattern.split('.');
  const source = words
    .map((word, index) => {
      const separator = index === 0 ? '' : '\\.';
      if (word === '#') return index === 0 ? '(?:[^]*?)' : '(?:\\.[^]*)?';
      return separator + (word === '*' ? '[^.]+' : escape(word));
    })
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (address) => address !== undefined && regex.test(address);
}

export type PathPattern = readonly string[];

/** The segments of a rule's path: `**` for any depth, `*` for any one segment. */
export function pathPattern(kind: 'json-path' | 'xml-path', pattern: string): PathPattern {
  if (kind === 'xml-path') {
    return pattern
      .replace(/\/\//g, '/**/')
      .split('/')
      .filter((segment) => segment !== '');
  }
  return pattern
    .replace(/^\$/, '')
    .replace(/\[\*\]/g, '.*')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\[['"]([^'"]+)['"]\]/g, '.$1')
    .replace(/\.\./g, '.**.')
    .split('.')
    .filter((segment) => segment !== '');
}

/**
 * Whether a concrete path (keys and indices) is matched by the pattern. A pattern ending in a name matches only
 * paths ending in it: checked first, since most paths of a document end elsewhere.
 */
export function pathMatches(pattern: PathPattern, path: readonly string[]): boolean {
  const last = pattern[pattern.length - 1];
  if (last !== undefined && last !== '*' && last !== '**' && last !== path[path.length - 1]) return false;
  return matchFrom(pattern, path, 0, 0);
}

function matchFrom(pattern: PathPattern, path: readonly string[], from: number, at: number): boolean {
  if (from === pattern.length) return at === path.length;
  const segment = pattern[from];
  if (segment === '**') {
    for (let skip = at; skip <= path.length; skip++) if (matchFrom(pattern, path, from + 1, skip)) return true;
    return false;
  }
  if (at === path.length) return false;
  return (segment === '*' || segment === path[at]) && matchFrom(pattern, path, from + 1, at + 1);
}
