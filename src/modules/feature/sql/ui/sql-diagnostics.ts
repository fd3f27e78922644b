// A syntax error as the editor marks it: the token the server pointed at, underlined, with the message on hover.
// The text may have changed since the query ran, so the range is kept inside the document.
import type { Diagnostic } from '@codemirror/lint';
import type { SqlSyntaxError } from './sql-problem.ts';

export function syntaxDiagnostic(error: SqlSyntaxError, documentLength: number): Diagnostic {
  const from = Math.max(0, Math.min(error.offset, documentLength));
  // An empty token (the query ended too early) still marks one character, or the end of the text.
  const to = Math.min(documentLength, from + Math.max(error.token.length, 1));
  return { from: to > from ? from : Math.max(0, from - 1), to, severity: 'error', message: error.message };
}
