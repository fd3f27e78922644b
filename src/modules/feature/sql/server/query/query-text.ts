// The query's text with its tokens: every refusal goes through fail(), which finds the offending token's position.
import { endOf, findToken, tokenize, type Token } from './tokens.ts';
import { sqlSyntaxError, type TextPosition } from './syntax-error.ts';

export class QueryText {
  readonly tokens: readonly Token[];

  constructor(readonly text: string) {
    this.tokens = tokenize(text);
  }

  /**
   * Refuses the query, pointing at the first token from `fromOffset` on that reads as `wanted` (a word without case,
   * a quoted name or string by its content); at the first token from there when `wanted` is not found.
   */
  fail(detail: string, wanted?: string, fromOffset = 0): never {
    const token =
      (wanted === undefined ? undefined : findToken(this.tokens, wanted, fromOffset)) ??
      (wanted === undefined ? undefined : findToken(this.tokens, wanted)) ??
      this.tokens.find((candidate) => candidate.offset >= fromOffset);
    throw sqlSyntaxError(detail, token ? positionOf(token) : endOf(this.text), token?.text ?? '');
  }

  failAt(detail: string, position: TextPosition, token: string): never {
    throw sqlSyntaxError(detail, position, token);
  }

  /** Where a clause keyword first appears: later searches start there so they point into the right clause. */
  offsetOf(keyword: string, fromOffset = 0): number {
    return findToken(this.tokens, keyword, fromOffset)?.offset ?? fromOffset;
  }
}

function positionOf(token: Token): TextPosition {
  return { line: token.line, column: token.column, offset: token.offset };
}
