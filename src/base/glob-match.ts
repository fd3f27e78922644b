// Whether a name falls under a glob of `*` (any characters) and `?` (one character), without a regular expression:
// a rule's pattern is an operator's input run in the web and worker processes, and a backtracking regex of it can be
// made to take seconds (`*a*a*a*a*…b` against a long name). This walks both strings once, returning to the last `*`
// only: O(pattern × name) in the worst case, never exponential.

/** Whether the whole of `subject` matches `pattern` (`*` any characters, `?` one; every other character itself). */
export function globMatches(pattern: string, subject: string): boolean {
  let at = 0; // in the pattern
  let on = 0; // in the subject
  let star = -1; // the pattern position of the last `*` seen
  let resume = 0; // the subject position that `*` has swallowed up to
  while (on < subject.length) {
    const wanted = pattern[at];
    if (wanted === '*') {
      star = at++;
      resume = on;
    } else if (wanted !== undefined && (wanted === '?' || wanted === subject[on])) {
      at++;
      on++;
    } else if (star >= 0) {
      // The last `*` takes one more character; earlier stars never need to: any match they could give, it gives.
      at = star + 1;
      on = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[at] === '*') at++;
  return at === pattern.length;
}
