import { describe, expect, it } from 'vitest';
import { syntaxDiagnostic } from './sql-diagnostics.ts';
import { syntaxErrorOf } from './sql-problem.ts';

const problemError = (problem: Record<string, unknown>) => ({ data: { problem } });

describe('a syntax error in the editor', () => {
  it('is read from the problem and marks its token', () => {
    const error = syntaxErrorOf(
      problemError({
        type: 'sql-syntax',
        title: 'The query is not valid',
        status: 400,
        detail: 'Unknown column "nod" (line 1, column 8)',
        position: { line: 1, column: 8, offset: 7 },
        token: 'nod',
      }),
    );
    expect(error).toEqual({
      message: 'Unknown column "nod" (line 1, column 8)',
      line: 1,
      column: 8,
      offset: 7,
      token: 'nod',
    });
    if (!error) throw new Error('no syntax error read');
    expect(syntaxDiagnostic(error, 'SELECT nod FROM q'.length)).toMatchObject({ from: 7, to: 10, severity: 'error' });
  });

  it('stays inside a text that got shorter, and marks one character for an empty token', () => {
    const error = { message: 'm', line: 1, column: 30, offset: 29, token: 'FROM' };
    expect(syntaxDiagnostic(error, 10)).toMatchObject({ from: 9, to: 10 });
    expect(syntaxDiagnostic({ ...error, offset: 3, token: '' }, 10)).toMatchObject({ from: 3, to: 4 });
  });

  it('is not read from another problem', () => {
    expect(syntaxErrorOf(problemError({ type: 'forbidden', title: 'No' }))).toBeUndefined();
    expect(syntaxErrorOf(undefined)).toBeUndefined();
  });
});
