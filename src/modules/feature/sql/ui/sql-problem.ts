// What the console reads out of a failed call beyond the problem's title and detail: where a syntax error sits (the
// editor underlines the token) and the broker configuration a refused capture names.
import { problemOf } from '@/ui/data/problem.ts';

export interface SqlSyntaxError {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  /** 0-based into the query's text. */
  readonly offset: number;
  readonly token: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The syntax error a query earned (problem type `sql-syntax`), or undefined for any other failure. */
export function syntaxErrorOf(error: unknown): SqlSyntaxError | undefined {
  if (error === null || error === undefined) return undefined;
  const problem: unknown = problemOf(error);
  if (!isRecord(problem) || problem.type !== 'sql-syntax' || !isRecord(problem.position)) return undefined;
  const { line, column, offset } = problem.position;
  if (typeof line !== 'number' || typeof column !== 'number' || typeof offset !== 'number') return undefined;
  return {
    message: typeof problem.detail === 'string' ? problem.detail : String(problem.title),
    line,
    column,
    offset,
    token: typeof problem.token === 'string' ? problem.token : '',
  };
}

/** The broker.xml a refused capture (problem type `capture-refused`) says would change the answer. */
export function configSnippetOf(error: unknown): string | undefined {
  if (error === null || error === undefined) return undefined;
  const problem: unknown = problemOf(error);
  if (!isRecord(problem) || problem.type !== 'capture-refused') return undefined;
  return typeof problem.configSnippet === 'string' ? problem.configSnippet : undefined;
}
