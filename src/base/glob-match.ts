// Whether a name falls under a glob, without a regular expression: patterns are operators' input (alert rules,
// content-policy rules) run in the web and worker processes, and a backtracking regex of one can be made to take
// seconds (`*a*a*a*a*…b` against a long name). These walk both sequences once, returning to the last "any number"
// wildcard only: O(pattern × subject) in the worst case, never exponential. The same walk serves characters (`*`,
// `?`), address words (Artemis's `#` any number of words, `*` one) and document paths (`**`, `*`).

/**
 * Whether the whole of `subject` matches `pattern`: an item for which `isMany` holds matches any number of subject
 * items (none too), and `matchesOne` says whether any other pattern item matches one subject item.
 */
export function sequenceMatches<T>(
  pattern: ArrayLike<T>,
  subject: ArrayLike<T>,
  isMany: (item: T) => boolean,
  matchesOne: (wanted: T, item: T) => boolean,
): boolean {
  let at = 0; // in the pattern
  let on = 0; // in the subject
  let star = -1; // the pattern position of the last "any number" seen
  let resume = 0; // the subject position it has swallowed up to
  while (on < subject.length) {
    const wanted = at < pattern.length ? pattern[at] : undefined;
    if (wanted !== undefined && isMany(wanted)) {
      star = at++;
      resume = on;
    } else if (wanted !== undefined && matchesOne(wanted, subject[on] as T)) {
      at++;
      on++;
    } else if (star >= 0) {
      // The last wildcard takes one more item; earlier ones never need to: any match they could give, it gives.
      at = star + 1;
      on = ++resume;
    } else {
      return false;
    }
  }
  while (at < pattern.length && isMany(pattern[at] as T)) at++;
  return at === pattern.length;
}

/** Whether the whole of `subject` matches `pattern` (`*` any characters, `?` one; every other character itself). */
export function globMatches(pattern: string, subject: string): boolean {
  return sequenceMatches(
    pattern,
    subject,
    (wanted) => wanted === '*',
    (wanted, item) => wanted === '?' || wanted === item,
  );
}
