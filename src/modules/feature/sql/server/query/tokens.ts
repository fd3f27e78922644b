// A light lexer over the query text, used only to find where a token is: node-sql-parser reports positions for its
// own syntax errors, but its tree carries none for column references and literals, and a refusal of a well-formed
// query (an unknown column, a function other than now()) must still point at the token.
import type { TextPosition } from './syntax-error.ts';

export interface Token extends TextPosition {
  readonly text: string;
}

const TOKEN_PATTERNS: readonly RegExp[] = [
  /--[^\n]*/y, // comment (skipped)
  /\/\*[\s\S]*?(\*\/|$)/y, // comment (skipped)
  /\s+/y, // whitespace (skipped)
  /[Ee]?'(?:[^']|'')*'?/y, // string literal (an unterminated one runs to the end)
  /"(?:[^"]|"")*"?/y, // quoted identifier
  /\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?/y, // number
  /[A-Za-z_][A-Za-z0-9_$]*/y, // word
  /->>|->|<=|>=|<>|!=|::|\|\|/y, // two- and three-character operators
  /[\s\S]/y, // any other single character
];

function isSkipped(text: string): boolean {
  return text.startsWith('--') || text.startsWith('/*') || text.trim() === '';
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  let line = 1;
  let column = 1;
  while (offset < text.length) {
    let matched = text[offset] ?? '';
    for (const pattern of TOKEN_PATTERNS) {
      pattern.lastIndex = offset;
      const match = pattern.exec(text);
      if (match && match[0].length > 0) {
        matched = match[0];
        break;
      }
    }
    if (!isSkipped(matched)) tokens.push({ text: matched, offset, line, column });
    for (const character of matched) {
      if (character === '\n') {
        line += 1;
        column = 1;
      } else column += 1;
    }
    offset += matched.length;
  }
  return tokens;
}

/** The position just past the text, for a query that ends too early. */
export function endOf(text: string): TextPosition {
  const lines = text.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1, offset: text.length };
}

/** The token starting at `offset`, or the first one after it. */
export function tokenAt(tokens: readonly Token[], offset: number): Token | undefined {
  return tokens.find((token) => token.offset + token.text.length > offset);
}

/**
 * The first token from `fromOffset` on that reads as `wanted`: words compare without case, a quoted identifier or a
 * string also matches its content.
 */
export function findToken(tokens: readonly Token[], wanted: string, fromOffset = 0): Token | undefined {
  const lower = wanted.toLowerCase();
  return tokens.find(
    (token) => token.offset >= fromOffset && (token.text.toLowerCase() === lower || unquote(token.text) === wanted),
  );
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1).replaceAll('""', '"');
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  return text;
}
