// The one error a query's text can earn: problem type `sql-syntax`, 400, saying in words what is wrong and pointing at
// the offending token (line and column 1-based, offset 0-based into the text), so the editor can underline it.
import { ProblemError } from '@/modules/kernel/core/index.ts';

export interface TextPosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

const SQL_SYNTAX_PROBLEM = 'sql-syntax';

export function sqlSyntaxError(detail: string, position: TextPosition, token: string): ProblemError {
  return new ProblemError({
    type: SQL_SYNTAX_PROBLEM,
    title: 'The query is not valid',
    status: 400,
    detail: `${detail} (line ${position.line}, column ${position.column})`,
    position,
    token,
  });
}
