// A recursive-descent parser for JMS message selectors with Artemis's grammar and its parse-time checks
// (artemis-selector StrictParser.jj and ComparisonExpression), so a filter the broker refuses is refused here too:
//   or      := and (OR and)*
//   and     := equality (AND equality)*
//   equality:= comparison ( (= | <>) comparison | IS [NOT] NULL )*
//   comparison := additive ( (> | >= | < | <=) additive | [NOT] LIKE 'p' [ESCAPE 'e'] | [NOT] BETWEEN additive AND additive
//              | [NOT] IN ('s', ...) )*
//   additive:= multiplicative ((+ | -) multiplicative)*
//   multiplicative := unary ((* | / | %) unary)*
//   unary   := + unary | - unary | NOT unary | XPATH 's' | XQUERY 's' | primary
//   primary := literal | identifier | ( or )
// NOT binds as tightly as unary minus, as in Artemis: `NOT a = 'x'` reads `(NOT a) = 'x'`.
import { SelectorSyntaxError, tokenize, type Token } from './selector-lexer.ts';

export type Literal = string | number | boolean | null;
export type ComparisonOperator = '=' | '<>' | '<' | '>' | '<=' | '>=';
export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';

export type SelectorExpression =
  | { readonly kind: 'literal'; readonly value: Literal }
  | { readonly kind: 'identifier'; readonly name: string }
  | { readonly kind: 'negate'; readonly operand: SelectorExpression }
  | { readonly kind: 'not'; readonly operand: SelectorExpression }
  | { readonly kind: 'and' | 'or'; readonly operands: readonly SelectorExpression[] }
  | {
      readonly kind: 'compare';
      readonly operator: ComparisonOperator;
      readonly left: SelectorExpression;
      readonly right: SelectorExpression;
    }
  | {
      readonly kind: 'arithmetic';
      readonly operator: ArithmeticOperator;
      readonly left: SelectorExpression;
      readonly right: SelectorExpression;
    }
  | {
      readonly kind: 'between';
      readonly value: SelectorExpression;
      readonly low: SelectorExpression;
      readonly high: SelectorExpression;
      readonly negated: boolean;
    }
  | { readonly kind: 'in'; readonly name: string; readonly values: readonly string[]; readonly negated: boolean }
  | {
      readonly kind: 'like';
      readonly value: SelectorExpression;
      readonly pattern: string;
      readonly escape: string | null;
      readonly negated: boolean;
    }
  | { readonly kind: 'is-null'; readonly value: SelectorExpression; readonly negated: boolean }
  /** XPATH/XQUERY on the body: parsed, never evaluated here (the body is not part of a probe). */
  | { readonly kind: 'body-query'; readonly language: 'XPATH' | 'XQUERY'; readonly query: string };

/** Reads a selector; throws SelectorSyntaxError with the offset of what is wrong. */
export function parseSelector(selector: string): SelectorExpression {
  return new Parser(tokenize(selector)).selector();
}

/** Expressions with a true/false/unknown value; a bare identifier is cast, anything else is not a condition. */
function isCondition(expression: SelectorExpression): boolean {
  switch (expression.kind) {
    case 'literal':
      return typeof expression.value === 'boolean' || expression.value === null;
    case 'identifier':
    case 'not':
    case 'and':
    case 'or':
    case 'compare':
    case 'between':
    case 'in':
    case 'like':
    case 'is-null':
    case 'body-query':
      return true;
    default:
      return false;
  }
}

function describe(expression: SelectorExpression): string {
  if (expression.kind === 'literal') {
    if (typeof expression.value === 'string') return `'${expression.value.replace(/'/g, "''")}'`;
    return expression.value === null ? 'NULL' : String(expression.value).toUpperCase();
  }
  if (expression.kind === 'identifier') return expression.name;
  return `the ${expression.kind} expression`;
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  selector(): SelectorExpression {
    if (this.peek().kind === 'end') throw new SelectorSyntaxError('The selector is empty', 0);
    const start = this.peek().offset;
    const expression = this.or();
    const next = this.peek();
    if (next.kind !== 'end') throw this.unexpected(next, 'an operator or the end of the selector');
    return this.condition(expression, start);
  }

  private or(): SelectorExpression {
    const start = this.peek().offset;
    const operands = [this.and()];
    while (this.acceptKeyword('OR')) operands.push(this.condition(this.and(), this.previous().offset));
    if (operands.length === 1) return operands[0] as SelectorExpression;
    return { kind: 'or', operands: [this.condition(operands[0] as SelectorExpression, start), ...operands.slice(1)] };
  }

  private and(): SelectorExpression {
    const start = this.peek().offset;
    const operands = [this.equality()];
    while (this.acceptKeyword('AND')) operands.push(this.condition(this.equality(), this.previous().offset));
    if (operands.length === 1) return operands[0] as SelectorExpression;
    return { kind: 'and', operands: [this.condition(operands[0] as SelectorExpression, start), ...operands.slice(1)] };
  }

  private equality(): SelectorExpression {
    let left = this.comparison();
    for (;;) {
      const token = this.peek();
      if (token.kind === 'operator' && (token.text === '=' || token.text === '<>')) {
        this.position += 1;
        const right = this.comparison();
        this.checkEqualOperands(left, right, token);
        left = { kind: 'compare', operator: token.text, left, right };
      } else if (this.acceptKeyword('IS')) {
        const negated = this.acceptKeyword('NOT');
        if (!this.acceptKeyword('NULL')) throw this.unexpected(this.peek(), negated ? 'NULL' : 'NULL or NOT NULL');
        left = { kind: 'is-null', value: left, negated };
      } else {
        return left;
      }
    }
  }

  private comparison(): SelectorExpression {
    let left = this.additive();
    for (;;) {
      const token = this.peek();
      if (token.kind === 'operator' && ['<', '>', '<=', '>='].includes(token.text)) {
        this.position += 1;
        const right = this.additive();
        this.checkOrderable(left, token);
        this.checkOrderable(right, token);
        left = { kind: 'compare', operator: token.text as ComparisonOperator, left, right };
        continue;
      }
      const negated = token.kind === 'keyword' && token.text === 'NOT' && this.isNegatedPredicate();
      if (negated) this.position += 1;
      if (this.acceptKeyword('LIKE')) {
        const pattern = this.stringLiteral('a quoted pattern after LIKE');
        let escape: string | null = null;
        if (this.acceptKeyword('ESCAPE')) {
          const escapeToken = this.peek();
          escape = this.stringLiteral('a quoted character after ESCAPE');
          if (escape.length !== 1)
            throw new SelectorSyntaxError(
              `The ESCAPE string must be exactly one character, not '${escape}'`,
              escapeToken.offset,
            );
        }
        left = { kind: 'like', value: left, pattern, escape, negated };
      } else if (this.acceptKeyword('BETWEEN')) {
        const low = this.additive();
        if (!this.acceptKeyword('AND')) throw this.unexpected(this.peek(), 'AND in BETWEEN … AND …');
        const high = this.additive();
        for (const operand of [left, low, high]) this.checkOrderable(operand, token);
        left = { kind: 'between', value: left, low, high, negated };
      } else if (this.acceptKeyword('IN')) {
        if (left.kind !== 'identifier')
          throw new SelectorSyntaxError(`IN needs a property name on its left, not ${describe(left)}`, token.offset);
        left = { kind: 'in', name: left.name, values: this.stringList(), negated };
      } else {
        return left;
      }
    }
  }

  private isNegatedPredicate(): boolean {
    const after = this.tokens[this.position + 1];
    return after?.kind === 'keyword' && ['LIKE', 'BETWEEN', 'IN'].includes(after.text);
  }

  private additive(): SelectorExpression {
    let left = this.multiplicative();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'operator' || (token.text !== '+' && token.text !== '-')) return left;
      this.position += 1;
      left = { kind: 'arithmetic', operator: token.text, left, right: this.multiplicative() };
    }
  }

  private multiplicative(): SelectorExpression {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'operator' || !['*', '/', '%'].includes(token.text)) return left;
      this.position += 1;
      left = { kind: 'arithmetic', operator: token.text as ArithmeticOperator, left, right: this.unary() };
    }
  }

  private unary(): SelectorExpression {
    const token = this.peek();
    if (token.kind === 'operator' && token.text === '+') {
      this.position += 1;
      return this.unary();
    }
    if (token.kind === 'operator' && token.text === '-') {
      this.position += 1;
      return { kind: 'negate', operand: this.unary() };
    }
    if (this.acceptKeyword('NOT')) {
      const start = this.peek().offset;
      return { kind: 'not', operand: this.condition(this.unary(), start) };
    }
    if (token.kind === 'keyword' && (token.text === 'XPATH' || token.text === 'XQUERY')) {
      this.position += 1;
      return {
        kind: 'body-query',
        language: token.text,
        query: this.stringLiteral(`a quoted query after ${token.text}`),
      };
    }
    return this.primary();
  }

  private primary(): SelectorExpression {
    const token = this.next();
    switch (token.kind) {
      case 'string':
        return { kind: 'literal', value: token.text };
      case 'integer':
      case 'float':
        return { kind: 'literal', value: token.value ?? 0 };
      case 'identifier':
        return { kind: 'identifier', name: token.text };
      case 'keyword':
        if (token.text === 'TRUE') return { kind: 'literal', value: true };
        if (token.text === 'FALSE') return { kind: 'literal', value: false };
        if (token.text === 'NULL') return { kind: 'literal', value: null };
        break;
      case 'lparen': {
        const inner = this.or();
        if (this.next().kind !== 'rparen') throw this.unexpected(this.previous(), 'a closing )');
        return inner;
      }
      default:
        break;
    }
    throw this.unexpected(token, 'a value, a property name or (');
  }

  private stringList(): string[] {
    if (this.next().kind !== 'lparen') throw this.unexpected(this.previous(), '( after IN');
    const values = [this.stringLiteral("a quoted string in the IN list (IN takes strings only, e.g. IN ('a', 'b'))")];
    while (this.peek().kind === 'comma') {
      this.position += 1;
      values.push(this.stringLiteral('a quoted string in the IN list'));
    }
    if (this.next().kind !== 'rparen') throw this.unexpected(this.previous(), ', or ) in the IN list');
    return values;
  }

  private stringLiteral(expected: string): string {
    const token = this.next();
    if (token.kind !== 'string') throw this.unexpected(token, expected);
    return token.text;
  }

  /** Artemis: an AND/OR/NOT operand and the whole selector must be a condition (a bare property is cast). */
  private condition(expression: SelectorExpression, offset: number): SelectorExpression {
    if (!isCondition(expression))
      throw new SelectorSyntaxError(`${describe(expression)} is not a condition (true or false)`, offset);
    return expression;
  }

  /** Artemis refuses NULL on either side of = and <> (IS NULL is the way), and TRUE/FALSE against another literal. */
  private checkEqualOperands(left: SelectorExpression, right: SelectorExpression, token: Token): void {
    for (const operand of [left, right]) {
      if (operand.kind === 'literal' && operand.value === null)
        throw new SelectorSyntaxError(
          `NULL cannot be compared with ${token.text}: write IS NULL or IS NOT NULL`,
          token.offset,
        );
    }
    if (
      left.kind === 'literal' &&
      right.kind === 'literal' &&
      typeof left.value === 'boolean' &&
      typeof right.value !== 'boolean'
    )
      throw new SelectorSyntaxError(`${describe(left)} cannot be compared with ${describe(right)}`, token.offset);
  }

  /** Artemis refuses a string or boolean literal, or a condition, on either side of < > <= >= and BETWEEN. */
  private checkOrderable(operand: SelectorExpression, token: Token): void {
    const literal = operand.kind === 'literal';
    if (
      (literal && typeof operand.value !== 'number') ||
      (!literal && operand.kind !== 'identifier' && isCondition(operand))
    )
      throw new SelectorSyntaxError(
        `${describe(operand)} cannot be ordered with ${token.text}: only numbers (and properties) can`,
        token.offset,
      );
  }

  private peek(): Token {
    return this.tokens[this.position] ?? { kind: 'end', text: '', offset: 0 };
  }

  private previous(): Token {
    return this.tokens[Math.max(0, this.position - 1)] ?? this.peek();
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  private acceptKeyword(keyword: string): boolean {
    const token = this.peek();
    if (token.kind !== 'keyword' || token.text !== keyword) return false;
    this.position += 1;
    return true;
  }

  private unexpected(token: Token, expected: string): SelectorSyntaxError {
    const found = token.kind === 'end' ? 'the end of the selector' : JSON.stringify(token.text);
    return new SelectorSyntaxError(`Expected ${expected}, found ${found}`, token.offset);
  }
}
