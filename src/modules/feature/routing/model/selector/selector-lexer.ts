// The tokens of a JMS message selector as Artemis reads a filter (artemis-selector's StrictParser grammar): keywords
// in any case, identifiers case-sensitive (plain or "double-quoted"), 'string' literals with '' for a quote, decimal
// (optional L), hex 0x, octal 0 and floating-point literals, and -- and /* */ comments.

type TokenKind =
  'identifier' | 'keyword' | 'string' | 'integer' | 'float' | 'operator' | 'lparen' | 'rparen' | 'comma' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The keyword upper-cased, the identifier or string without its quotes, the operator, or the number's text. */
  readonly text: string;
  /** 0-based offset of the token's first character in the selector. */
  readonly offset: number;
  /** For integer and float tokens: the value. */
  readonly value?: number;
}

export const KEYWORDS = new Set([
  'NOT',
  'AND',
  'OR',
  'BETWEEN',
  'LIKE',
  'ESCAPE',
  'IN',
  'IS',
  'TRUE',
  'FALSE',
  'NULL',
  'XPATH',
  'XQUERY',
]);

/** A selector that cannot be read: where (0-based offset, 1-based column) and why, in words. */
export class SelectorSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(`${reason} (at character ${offset + 1})`);
    this.name = 'SelectorSyntaxError';
  }
}

const IDENTIFIER_START = /[A-Za-z_$]/;
const IDENTIFIER_PART = /[A-Za-z0-9_$]/;
const DIGIT = /[0-9]/;
const NUMBER =
  /^(?:0[xX][0-9a-fA-F]+|[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+|[1-9][0-9]*[lL]?|0[0-7]*)/;
const TWO_CHARACTER_OPERATORS = new Set(['<>', '<=', '>=']);
const ONE_CHARACTER_OPERATORS = new Set(['=', '<', '>', '+', '-', '*', '/', '%']);

export function tokenize(selector: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < selector.length) {
    const character = selector.charAt(at);
    if (/\s/.test(character)) {
      at += 1;
    } else if (selector.startsWith('--', at)) {
      const end = selector.indexOf('\n', at);
      at = end === -1 ? selector.length : end + 1;
    } else if (selector.startsWith('/*', at)) {
      const end = selector.indexOf('*/', at + 2);
      if (end === -1) throw new SelectorSyntaxError('A /* comment is not closed', at);
      at = end + 2;
    } else if (character === "'" || character === '"') {
      const { text, next } = quoted(selector, at, character);
      tokens.push({ kind: character === "'" ? 'string' : 'identifier', text, offset: at });
      at = next;
    } else if (IDENTIFIER_START.test(character)) {
      let end = at + 1;
      while (end < selector.length && IDENTIFIER_PART.test(selector.charAt(end))) end += 1;
      const word = selector.slice(at, end);
      const upper = word.toUpperCase();
      tokens.push(
        KEYWORDS.has(upper)
          ? { kind: 'keyword', text: upper, offset: at }
          : { kind: 'identifier', text: word, offset: at },
      );
      at = end;
    } else if (DIGIT.test(character) || (character === '.' && DIGIT.test(selector.charAt(at + 1)))) {
      tokens.push(numberToken(selector, at));
      at += tokens[tokens.length - 1]?.text.length ?? 1;
    } else if (TWO_CHARACTER_OPERATORS.has(selector.slice(at, at + 2))) {
      tokens.push({ kind: 'operator', text: selector.slice(at, at + 2), offset: at });
      at += 2;
    } else if (ONE_CHARACTER_OPERATORS.has(character)) {
      tokens.push({ kind: 'operator', text: character, offset: at });
      at += 1;
    } else if (character === '(' || character === ')' || character === ',') {
      const kind = character === '(' ? 'lparen' : character === ')' ? 'rparen' : 'comma';
      tokens.push({ kind, text: character, offset: at });
      at += 1;
    } else {
      throw new SelectorSyntaxError(`Unexpected character ${JSON.stringify(character)}`, at);
    }
  }
  tokens.push({ kind: 'end', text: '', offset: selector.length });
  return tokens;
}

/** A quoted string or identifier: the quote doubled stands for itself. */
function quoted(selector: string, start: number, quote: string): { text: string; next: number } {
  let text = '';
  let at = start + 1;
  while (at < selector.length) {
    const character = selector.charAt(at);
    if (character === quote) {
      if (selector.charAt(at + 1) !== quote) return { text, next: at + 1 };
      text += quote;
      at += 2;
    } else {
      text += character;
      at += 1;
    }
  }
  const what = quote === "'" ? 'string' : 'quoted identifier';
  throw new SelectorSyntaxError(`The ${what} is not closed: add a ${quote}`, start);
}

function numberToken(selector: string, start: number): Token {
  const text = NUMBER.exec(selector.slice(start))?.[0] ?? '';
  const after = selector.charAt(start + text.length);
  // 09 or 12abc: the grammar has no such literal (an octal literal holds 0-7 only, a name cannot start with a digit).
  if (text === '' || IDENTIFIER_PART.test(after) || after === '.')
    throw new SelectorSyntaxError(
      `Not a number: ${JSON.stringify(selector.slice(start, start + text.length + 1))}`,
      start,
    );
  if (/^0[xX]/.test(text)) return { kind: 'integer', text, offset: start, value: parseInt(text.slice(2), 16) };
  if (/[.eE]/.test(text)) return { kind: 'float', text, offset: start, value: Number(text) };
  if (text.length > 1 && text.startsWith('0'))
    return { kind: 'integer', text, offset: start, value: parseInt(text, 8) };
  return { kind: 'integer', text, offset: start, value: Number(text.replace(/[lL]$/, '')) };
}
