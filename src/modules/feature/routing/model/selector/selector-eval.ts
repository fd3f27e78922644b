// Evaluates a parsed selector against one message the way an Artemis broker does (artemis-selector's
// ComparisonExpression, LogicExpression, UnaryExpression, ArithmeticExpression and artemis-server's FilterImpl):
// - three-valued logic: a missing value makes a comparison unknown (null); AND/OR/NOT propagate it; a message is
//   selected only when the selector is true. NOT unknown is unknown.
// - values of different types (a number and a string, a boolean and a number) compare as FALSE, not unknown, as the
//   JMS specification says; numbers compare across integer and floating point.
// - the broker's own quirks are kept: `x = y` with both missing is TRUE (IS NULL is built on it); `'a' = x` with x
//   missing is FALSE while `x = 'a'` is unknown; LIKE on a non-string is FALSE; IN on a non-string is unknown; `/` and
//   `%` compute in floating point; `'a' + x` concatenates; arithmetic on a non-number fails the whole filter (FilterImpl
//   logs it and does not select the message).
import type { ArithmeticOperator, ComparisonOperator, Literal, SelectorExpression } from './selector-parser.ts';

/** A value the caller cannot know (the message's size, an id the broker assigns): evaluated as absent, and reported. */
export const UNKNOWABLE: unique symbol = Symbol('unknowable');

/** What a name in a selector means for this message: a value, null when absent, or UNKNOWABLE. */
export type SelectorLookup = (name: string) => Literal | typeof UNKNOWABLE;

export interface SelectorVerdict {
  /** Whether the broker would select the message, as far as it can be known. */
  readonly selected: boolean;
  /** The selector's three-valued result: true, false or null (unknown). */
  readonly result: boolean | null;
  /** Names it read whose value cannot be known here: the verdict may be wrong. */
  readonly unknowable: readonly string[];
  /** Whether it queried the body (XPATH/XQUERY), which a probe has none of: the verdict may be wrong. */
  readonly readsBody: boolean;
  /** Set when evaluation failed (arithmetic on a non-number): the broker then does not select the message. */
  readonly failure: string | null;
}

type Truth = boolean | null;

class EvaluationFailure extends Error {}

export function evaluateSelector(expression: SelectorExpression, lookup: SelectorLookup): SelectorVerdict {
  const unknowable = new Set<string>();
  let readsBody = false;

  const read = (name: string): Literal => {
    const value = lookup(name);
    if (value === UNKNOWABLE) {
      unknowable.add(name);
      return null;
    }
    return value;
  };

  /** The value of an expression used as an operand. */
  const valueOf = (node: SelectorExpression): Literal => {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'identifier':
        return read(node.name);
      case 'negate': {
        const operand = valueOf(node.operand);
        return typeof operand === 'number' ? -operand : null;
      }
      case 'arithmetic':
        return arithmetic(node.operator, node.left, node.right);
      default:
        return truthOf(node);
    }
  };

  /** The truth of an expression in a condition's place (a bare property is cast: a non-boolean is FALSE). */
  const truthOf = (node: SelectorExpression): Truth => {
    switch (node.kind) {
      case 'literal':
        return typeof node.value === 'boolean' ? node.value : null;
      case 'identifier': {
        const value = read(node.name);
        if (value === null) return null;
        return typeof value === 'boolean' ? value : false;
      }
      case 'not':
        return not(truthOf(node.operand));
      case 'and':
        return and(node.operands.map((operand) => () => truthOf(operand)));
      case 'or':
        return or(node.operands.map((operand) => () => truthOf(operand)));
      case 'compare':
        return compare(node.operator, valueOf(node.left), () => valueOf(node.right));
      case 'between': {
        const value = () => valueOf(node.value);
        const low = () => valueOf(node.low);
        const high = () => valueOf(node.high);
        return node.negated
          ? or([() => compare('<', value(), low), () => compare('>', value(), high)])
          : and([() => compare('>=', value(), low), () => compare('<=', value(), high)]);
      }
      case 'in': {
        const value = read(node.name);
        if (typeof value !== 'string') return null;
        return node.values.includes(value) !== node.negated;
      }
      case 'like': {
        const value = valueOf(node.value);
        const result =
          value === null ? null : typeof value === 'string' && likePattern(node.pattern, node.escape).test(value);
        return node.negated ? not(result) : result;
      }
      case 'is-null': {
        const isNull = valueOf(node.value) === null;
        return node.negated ? !isNull : isNull;
      }
      case 'body-query':
        readsBody = true;
        return null;
      default:
        throw new EvaluationFailure(`${node.kind} is not a condition`);
    }
  };

  const arithmetic = (operator: ArithmeticOperator, leftNode: SelectorExpression, rightNode: SelectorExpression) => {
    const left = valueOf(leftNode);
    if (left === null) return null;
    const right = valueOf(rightNode);
    if (right === null) return null;
    if (operator === '+' && typeof left === 'string') return left + String(right);
    if (typeof left !== 'number' || typeof right !== 'number')
      throw new EvaluationFailure(`Cannot compute ${String(left)} ${operator} ${String(right)}: not numbers`);
    switch (operator) {
      case '+':
        return left + right;
      case '-':
        return left - right;
      case '*':
        return left * right;
      case '/':
        return left / right;
      case '%':
        return left % right;
    }
  };

  try {
    const result = truthOf(expression);
    return { selected: result === true, result, unknowable: [...unknowable], readsBody, failure: null };
  } catch (error) {
    if (!(error instanceof EvaluationFailure)) throw error;
    return { selected: false, result: false, unknowable: [...unknowable], readsBody, failure: error.message };
  }
}

function not(value: Truth): Truth {
  return value === null ? null : !value;
}

/** FALSE wins over unknown: evaluated left to right, stopping at the first FALSE, like the broker. */
function and(operands: ReadonlyArray<() => Truth>): Truth {
  let unknown = false;
  for (const operand of operands) {
    const value = operand();
    if (value === false) return false;
    if (value === null) unknown = true;
  }
  return unknown ? null : true;
}

function or(operands: ReadonlyArray<() => Truth>): Truth {
  let unknown = false;
  for (const operand of operands) {
    const value = operand();
    if (value === true) return true;
    if (value === null) unknown = true;
  }
  return unknown ? null : false;
}

/** Artemis's comparison: the right side is read only when the left is present (except for equality). */
function compare(operator: ComparisonOperator, left: Literal, readRight: () => Literal): Truth {
  if (operator === '=' || operator === '<>') {
    const equal = equals(left, readRight());
    return operator === '=' ? equal : not(equal);
  }
  if (left === null) return null;
  const right = readRight();
  if (right === null) return null;
  if (typeof left !== typeof right) return false;
  const order = left < right ? -1 : left > right ? 1 : 0;
  switch (operator) {
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
}

function equals(left: Literal, right: Literal): Truth {
  if ((left === null) !== (right === null)) return left === null ? null : false;
  return left === right;
}

const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 200;

/**
 * LIKE as Artemis compiles it: % any run, _ exactly one UTF-16 unit (newlines included), the escape character
 * makes a following %, _ or escape literal and is itself literal before anything else.
 */
function likePattern(pattern: string, escape: string | null): RegExp {
  const key = `${escape ?? ''}\u0000${pattern}`;
  const cached = patterns.get(key);
  if (cached) return cached;
  let source = '';
  for (let at = 0; at < pattern.length; at += 1) {
    const character = pattern.charAt(at);
    const following = pattern.charAt(at + 1);
    if (escape !== null && character === escape && (following === '%' || following === '_' || following === escape)) {
      source += escapeForRegex(following);
      at += 1;
    } else if (character === '%') source += '[\\s\\S]*?';
    else if (character === '_') source += '[\\s\\S]';
    else source += escapeForRegex(character);
  }
  const compiled = new RegExp(`^${source}$`);
  if (patterns.size >= MAX_PATTERNS) patterns.clear();
  patterns.set(key, compiled);
  return compiled;
}

function escapeForRegex(character: string): string {
  return character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
