// Literal values of the grammar, checked against the field they are compared with: priority takes a number, durable
// a boolean, time and expiration an instant, the other headers a string (a number is taken as its text), properties
// and body paths any of string, number, boolean.
import type { Field, Value } from './plan.ts';
import {
  functionArgsOf,
  functionNameOf,
  isNode,
  nodesOf,
  nodeType,
  startOf,
  stringLiteral,
  stringOf,
  type AstNode,
} from './ast.ts';
import { intervalMillis, isoInstant } from './time-values.ts';
import type { QueryText } from './query-text.ts';

type Literal = { readonly kind: 'plain'; readonly value: Value } | { readonly kind: 'instant'; readonly value: string };

const TIME_HEADERS = new Set(['time', 'expiration']);
const INSTANT_HINT = `an ISO-8601 instant such as '2026-11-28T07:00:00Z' or now() - interval '1 hour'`;

/** True when the node is a literal or a time expression, i.e. the value side of a comparison. */
export function isValueNode(node: AstNode): boolean {
  return (
    [
      'number',
      'bigint',
      'single_quote_string',
      'string',
      'bool',
      'null',
      'timestamp',
      'cast',
      'function',
      'interval',
    ].includes(nodeType(node)) ||
    (nodeType(node) === 'binary_expr' && (node['operator'] === '+' || node['operator'] === '-'))
  );
}

/** The value `node` gives for a comparison with `field`, refused in words when it cannot be one. */
export function valueFor(field: Field, node: AstNode, query: QueryText, from: number, now: Date): Value {
  const literal = literalOf(node, query, from, now);
  const isTime = field.kind === 'header' && TIME_HEADERS.has(field.name);
  if (literal.value === null) return null;
  if (isTime) {
    if (literal.kind === 'instant') return literal.value;
    const instant = typeof literal.value === 'string' ? isoInstant(literal.value) : undefined;
    if (instant === undefined)
      return query.fail(`${labelOf(field)} compares with ${INSTANT_HINT}`, tokenOf(literal.value), from);
    return instant;
  }
  if (literal.kind === 'instant') {
    return query.fail(`now() and times compare only with time or expiration, not ${labelOf(field)}`, 'now', from);
  }
  if (field.kind !== 'header') return literal.value;
  const value = literal.value;
  if (field.name === 'priority' && typeof value !== 'number') {
    return query.fail(`priority is a number from 0 to 9, not ${JSON.stringify(value)}`, tokenOf(value), from);
  }
  if (field.name === 'durable' && typeof value !== 'boolean') {
    return query.fail(`durable is true or false, not ${JSON.stringify(value)}`, tokenOf(value), from);
  }
  if (field.name !== 'priority' && field.name !== 'durable') {
    if (typeof value === 'boolean') return query.fail(`${field.name} is text, not ${value}`, String(value), from);
    return String(value);
  }
  return value;
}

function literalOf(node: AstNode, query: QueryText, from: number, now: Date): Literal {
  const type = nodeType(node);
  const value = node['value'];
  switch (type) {
    case 'number':
    case 'bigint': {
      // The parser gives a number as a number or, for decimals and big integers, as its text.
      const parsed = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(parsed)) break;
      if (Number.isInteger(parsed) && !Number.isSafeInteger(parsed)) {
        return query.fail(
          `${String(value)} is too large to compare exactly; quote it to compare it as text`,
          String(value),
          from,
        );
      }
      return { kind: 'plain', value: parsed };
    }
    case 'single_quote_string':
    case 'string':
      return { kind: 'plain', value: stringLiteral(value) };
    case 'bool':
      return { kind: 'plain', value: value === true };
    case 'null':
      return { kind: 'plain', value: null };
    case 'timestamp':
      return { kind: 'instant', value: instantOrFail(stringLiteral(value), query, from) };
    case 'cast':
      return castInstant(node, query, from);
    case 'function':
    case 'binary_expr':
      return { kind: 'instant', value: new Date(timeExpression(node, query, from, now)).toISOString() };
    case 'interval':
      return query.fail(`An interval is added to or taken from now(): now() - interval '1 hour'`, 'interval', from);
    default:
      break;
  }
  return query.fail(
    `This is not a value the grammar compares with: use a string, a number, true, false or ${INSTANT_HINT}`,
    undefined,
    from,
  );
}

function castInstant(node: AstNode, query: QueryText, from: number): Literal {
  const target = nodesOf(node['target'])[0];
  const dataType = stringOf(target?.['dataType'])?.toUpperCase() ?? '';
  const inner = isNode(node['expr']) ? node['expr'] : undefined;
  if (!dataType.startsWith('TIMESTAMP') || !inner || nodeType(inner) !== 'single_quote_string') {
    return query.fail(`Only a string cast to a timestamp is allowed: '2026-11-28T07:00:00Z'::timestamptz`, '::', from);
  }
  return { kind: 'instant', value: instantOrFail(stringLiteral(inner['value']), query, from) };
}

function instantOrFail(text: string, query: QueryText, from: number): string {
  return isoInstant(text) ?? query.fail(`'${text}' is not ${INSTANT_HINT}`, text, from);
}

/** now(), or now() plus or minus an interval, as milliseconds since the epoch. */
function timeExpression(node: AstNode, query: QueryText, from: number, now: Date): number {
  const at = startOf(node) ?? from;
  if (nodeType(node) === 'function') {
    const name = functionNameOf(node);
    if (name.toLowerCase() !== 'now') {
      return query.fail(`The function ${name}() is not supported; now() is the only function`, name, at);
    }
    if (functionArgsOf(node).length > 0) return query.fail('now() takes no arguments', name, at);
    return now.getTime();
  }
  const operator = String(node['operator']);
  const left = isNode(node['left']) ? node['left'] : undefined;
  const right = isNode(node['right']) ? node['right'] : undefined;
  if ((operator !== '+' && operator !== '-') || !left || !right || nodeType(right) !== 'interval') {
    return query.fail(`Arithmetic is limited to now() - interval '1 hour' or now() + interval '…'`, operator, at);
  }
  const base = timeExpression(left, query, from, now);
  const expr = isNode(right['expr']) ? right['expr'] : undefined;
  const text = expr && nodeType(expr) === 'single_quote_string' ? stringLiteral(expr['value']) : undefined;
  const millis = text === undefined ? undefined : intervalMillis(text, stringOf(right['unit']) ?? '');
  if (millis === undefined) {
    return query.fail(
      `An interval is a quoted length in milliseconds, seconds, minutes, hours, days or weeks, e.g. interval '90 minutes'`,
      'interval',
      at,
    );
  }
  return operator === '+' ? base + millis : base - millis;
}

function labelOf(field: Field): string {
  return field.kind === 'header' ? field.name : field.kind === 'property' ? `properties.${field.key}` : 'body';
}

function tokenOf(value: Value): string | undefined {
  return value === null ? undefined : String(value);
}
