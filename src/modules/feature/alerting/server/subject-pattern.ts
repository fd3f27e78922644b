// A rule's pattern over queue and address names: `*` any characters, `?` one; no pattern matches everything.
// A thousand rules over ten thousand queues cannot each test every name, so the usual shapes — a name, or a prefix
// and one trailing `*` — pick their items from a sorted index of the names built once per list and shared by every
// rule judging that list (lists read through ConditionContext.once keep their identity across rules). Other globs
// are matched by glob-match.ts, never as a regular expression (a pattern is an operator's input).
import { globMatches } from '@/base/glob-match.ts';

/** The longest pattern a rule may have (the rule schemas refuse a longer one with a 400). */
export const SUBJECT_PATTERN_MAX_LENGTH = 300;

export interface SubjectPattern {
  /** Whether one subject falls under the pattern. */
  readonly matches: (subject: string) => boolean;
  /** The items whose name falls under the pattern, in name order when an index answered. */
  readonly select: <T>(items: readonly T[], nameOf: (item: T) => string) => readonly T[];
}

interface NameIndex {
  readonly names: readonly string[];
  readonly items: readonly unknown[];
}

const indexes = new WeakMap<readonly unknown[], NameIndex>();

function indexOf<T>(items: readonly T[], nameOf: (item: T) => string): NameIndex {
  let index = indexes.get(items);
  if (!index) {
    const sorted = items.map((item) => ({ name: nameOf(item), item }));
    sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    index = { names: sorted.map((entry) => entry.name), items: sorted.map((entry) => entry.item) };
    indexes.set(items, index);
  }
  return index;
}

/** The first position whose name is not below `name` (names sorted by code unit, as `<` compares). */
function lowerBound(names: readonly string[], name: string): number {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((names[middle] as string) < name) low = middle + 1;
    else high = middle;
  }
  return low;
}

function fromIndex<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  start: string,
  takes: (name: string) => boolean,
): readonly T[] {
  const index = indexOf(items, nameOf);
  const picked: T[] = [];
  for (let at = lowerBound(index.names, start); at < index.names.length; at++) {
    if (!takes(index.names[at] as string)) break;
    picked.push(index.items[at] as T);
  }
  return picked;
}

export function subjectPattern(pattern: string | null): SubjectPattern {
  if (!pattern) return { matches: () => true, select: (items) => items };
  if (!/[*?]/.test(pattern)) {
    return {
      matches: (subject) => subject === pattern,
      select: (items, nameOf) => fromIndex(items, nameOf, pattern, (name) => name === pattern),
    };
  }
  const prefix = pattern.slice(0, -1);
  if (pattern.endsWith('*') && !/[*?]/.test(prefix)) {
    return {
      matches: (subject) => subject.startsWith(prefix),
      select: (items, nameOf) => fromIndex(items, nameOf, prefix, (name) => name.startsWith(prefix)),
    };
  }
  const matches = (subject: string) => globMatches(pattern, subject);
  return { matches, select: (items, nameOf) => items.filter((item) => matches(nameOf(item))) };
}
