// Splits a migration into statements at the semicolons PostgreSQL itself would split at: not inside a string, a
// quoted name or a comment (block comments nest, as in PostgreSQL). Each piece is then parsed on its own, so a
// piece the parser reads as two statements exposes a disagreement between the readers — the `;`-smuggling trick.
// Dollar quotes and backslashes are refused before this runs, so these four lexical forms are all there is.

export type SplitResult =
  { readonly ok: true; readonly statements: string[] } | { readonly ok: false; readonly reason: string };

export function splitStatements(sql: string): SplitResult {
  const statements: string[] = [];
  let start = 0;
  let meaningful = false;
  let at = 0;
  const close = (end: number): void => {
    if (meaningful) statements.push(sql.slice(start, end).trim());
    start = end + 1;
    meaningful = false;
  };
  while (at < sql.length) {
    const char = sql[at];
    const next = sql[at + 1];
    if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', at);
      at = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && next === '*') {
      const end = blockCommentEnd(sql, at);
      if (end === undefined) return { ok: false, reason: 'a comment is never closed' };
      at = end;
    } else if (char === "'" || char === '"') {
      const end = quotedEnd(sql, at, char);
      if (end === undefined) return { ok: false, reason: 'a string or quoted name is never closed' };
      meaningful = true;
      at = end;
    } else if (char === ';') {
      close(at);
      at += 1;
    } else {
      if (char !== undefined && !/\s/.test(char)) meaningful = true;
      at += 1;
    }
  }
  close(sql.length);
  return { ok: true, statements };
}

/** The index after the `*\/` closing the comment opened at `at`, counting nested comments. */
function blockCommentEnd(sql: string, at: number): number | undefined {
  let depth = 0;
  let index = at;
  while (index < sql.length - 1) {
    const pair = sql.slice(index, index + 2);
    if (pair === '/*') {
      depth += 1;
      index += 2;
    } else if (pair === '*/') {
      depth -= 1;
      index += 2;
      if (depth === 0) return index;
    } else {
      index += 1;
    }
  }
  return undefined;
}

/** The index after the quote closing the one at `at`; a doubled quote stands for itself. */
function quotedEnd(sql: string, at: number, quote: string): number | undefined {
  let index = at + 1;
  while (index < sql.length) {
    if (sql[index] === quote) {
      if (sql[index + 1] === quote) index += 2;
      else return index + 1;
    } else {
      index += 1;
    }
  }
  return undefined;
}
