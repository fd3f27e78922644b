// Matching names, paths and addresses for the policy's rules. Names (headers, properties) match case-insensitively
// with `*` as a wildcard. JSON paths ($.a.b, $.a[*].b, $.a.*.b, $..b) and XML paths (/a/b, //b, /a/*/b) both become
// a list of segments where `*` is one segment and `**` any number; array indices of a concrete path match `*`.
// Addresses use Artemis's wildcards: words separated by `.`, `*` one word, `#` any number of words. No pattern
// becomes a regular expression (a rule's pattern against a producer's long header name must not backtrack): all go
// through the linear walk of src/base/glob-match.ts.
import { sequenceMatches } from '@/base/glob-match.ts';

const isStar = (item: string) => item === '*';
const sameCharacter = (wanted: string, item: string) => wanted === item;

export function nameMatcher(pattern: string): (name: string) => boolean {
  const lowered = pattern.toLowerCase();
  return (name) => sequenceMatches(lowered, name.toLowerCase(), isStar, sameCharacter);
}

export function addressMatcher(pattern: string | undefined): (address: string | undefined) => boolean {
  if (!pattern || pattern === '#') return () => true;
  const words = pattern.split('.');
  return (address) =>
    address !== undefined &&
    sequenceMatches(
      words,
      address.split('.'),
      (word) => word === '#',
      (wanted, word) => (wanted === '*' ? word !== '' : wanted === word),
    );
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
  return sequenceMatches(
    pattern,
    path,
    (segment) => segment === '**',
    (segment, key) => segment === '*' || segment === key,
  );
}
