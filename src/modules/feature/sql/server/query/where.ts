// WHERE: AND, OR, NOT, comparisons, [NOT] IN, [NOT] LIKE … [ESCAPE], [NOT] BETWEEN, IS [NOT] NULL; one side a column,
// the other a value. node-sql-parser 5.4.0's PostgreSQL grammar groups AND and OR left to right with equal weight
// (`a OR b AND c` comes out as `(a OR b) AND c`), so chains of unparenthesised AND/OR are flattened in source order
// and regrouped here with SQL's precedence (AND before OR); the regrouping leaves a correctly grouped tree unchanged.
import type { Comparison, Field, Predicate } from './plan.ts';
import {
  columnNameOf,
  functionArgsOf,
  functionNameOf,
  isNode,
  nodesOf,
  nodeType,
  startOf,
  stringLiteral,
  type AstNode,
} from './ast.ts';
import { fieldOf } from './fields.ts';
import { isValueNode, valueFor } from './literals.ts';
import type { QueryText } from './query-text.ts';

const COMPARISONS: Readonly<Record<string, Comparison>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const FLIPPED: Readonly<Record<Comparison, Comparison>> = {
  '=': '=',
  '<>': '<>',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};
const STRING_ONLY_HEADERS = new Set(['priority', 'durable', 'time', 'expiration']);

interface Context {
  readonly query: QueryText;
  readonly now: Date;
}

export function predicateOf(node: AstNode, query: QueryText, now: Date, from: number): Predicate {
  return connected(node, { query, now }, from);
}

function isConnective(node: AstNode): boolean {
  return nodeType(node) === 'binary_expr' && (node['operator'] === 'AND' || node['operator'] === 'OR');
}

/** A chain of AND/OR regrouped with AND binding tighter than OR. */
function connected(root: AstNode, context: Context, from: number): Predicate {
  if (!isConnective(root)) return single(root, context, from);
  const operands: AstNode[] = [];
  const operators: string[] = [];
  const walk = (node: AstNode, isRoot: boolean): void => {
    if (isConnective(node) && (isRoot || node['parentheses'] !== true)) {
      walk(node['left'] as AstNode, false);
      operators.push(String(node['operator']));
      walk(node['right'] as AstNode, false);
    } else operands.push(node);
  };
  walk(root, true);
  const groups: Predicate[][] = [[]];
  operands.forEach((operand, index) => {
    if (index > 0 && operators[index - 1] === 'OR') groups.push([]);
    groups.at(-1)?.push(connected(operand, context, startOf(operand) ?? from));
  });
  const ands = groups.map((group) =>
    group.length === 1 ? (group[0] as Predicate) : ({ op: 'and', args: group } as const),
  );
  return ands.length === 1 ? (ands[0] as Predicate) : { op: 'or', args: ands };
}

function single(node: AstNode, context: Context, from: number): Predicate {
  const { query } = context;
  const at = startOf(node) ?? from;
  const type = nodeType(node);
  if (type === 'unary_expr' && node['operator'] === 'NOT' && isNode(node['expr'])) {
    return { op: 'not', arg: connected(node['expr'], context, at) };
  }
  if (type === 'function' && functionNameOf(node).toUpperCase() === 'NOT') {
    const args = functionArgsOf(node);
    if (args.length === 1 && args[0]) return { op: 'not', arg: connected(args[0], context, at) };
  }
  if (type === 'function') {
    const name = functionNameOf(node);
    return query.fail(`The function ${name}() is not a condition; compare a column with a value`, name, at);
  }
  if (type !== 'binary_expr') {
    const name = type === 'column_ref' ? columnNameOf(node) : undefined;
    return query.fail('A condition compares a column with a value, e.g. priority > 4', name, at);
  }
  const operator = String(node['operator']).toUpperCase();
  const left = node['left'] as AstNode;
  const right = node['right'] as AstNode;
  const comparison = COMPARISONS[operator];
  if (comparison) return compare(comparison, left, right, context, at);
  switch (operator) {
    case 'IN':
    case 'NOT IN':
      return inList(operator === 'NOT IN', left, right, context, at);
    case 'LIKE':
    case 'NOT LIKE':
      return like(operator === 'NOT LIKE', left, right, context, at);
    case 'BETWEEN':
    case 'NOT BETWEEN':
      return between(operator === 'NOT BETWEEN', left, right, context, at);
    case 'IS':
    case 'IS NOT':
      if (nodeType(right) !== 'null') return query.fail(`IS is followed by NULL or NOT NULL`, 'IS', at);
      return { op: 'isNull', field: fieldOrFail(left, context, at), negated: operator === 'IS NOT' };
    default:
      return query.fail(`The operator ${operator} is not supported`, String(node['operator']), at);
  }
}

function fieldOrFail(node: AstNode, context: Context, from: number): Field {
  const field = fieldOf(node, context.query, from);
  if (field) return field;
  if (nodeType(node) === 'function') {
    const name = functionNameOf(node);
    return context.query.fail(`The function ${name}() is not supported; now() is the only function`, name, from);
  }
  return context.query.fail('The left side of a condition is a column, e.g. priority > 4', undefined, from);
}

function compare(comparison: Comparison, left: AstNode, right: AstNode, context: Context, from: number): Predicate {
  const leftField = isValueNode(right) ? fieldOrFail(left, context, from) : fieldOf(left, context.query, from);
  const rightField = isValueNode(right) ? undefined : fieldOf(right, context.query, from);
  if (leftField && rightField) {
    return context.query.fail('A condition compares a column with a value, not with another column', comparison, from);
  }
  // `7731 = properties.orderId` reads the same as `properties.orderId = 7731`.
  const [field, valueNode, op] = leftField
    ? [leftField, right, comparison]
    : [fieldOrFail(right, context, from), left, FLIPPED[comparison]];
  subqueryGuard(valueNode, context, from);
  const value = valueFor(field, valueNode, context.query, from, context.now);
  if (value === null) {
    return context.query.fail(`A comparison with NULL is never true; write IS NULL or IS NOT NULL`, 'null', from);
  }
  return { op: 'compare', comparison: op, field, value };
}

function valuesOf(node: AstNode, context: Context, from: number): AstNode[] {
  subqueryGuard(node, context, from);
  if (nodeType(node) !== 'expr_list')
    return context.query.fail('Expected a list of values in parentheses', undefined, from);
  const values = nodesOf(node['value']);
  values.forEach((value) => subqueryGuard(value, context, from));
  return values;
}

function inList(negated: boolean, left: AstNode, right: AstNode, context: Context, from: number): Predicate {
  const field = fieldOrFail(left, context, from);
  const values = valuesOf(right, context, from).map((value) =>
    valueFor(field, value, context.query, from, context.now),
  );
  return { op: 'in', field, values, negated };
}

function between(negated: boolean, left: AstNode, right: AstNode, context: Context, from: number): Predicate {
  const field = fieldOrFail(left, context, from);
  const [low, high] = valuesOf(right, context, from).map((value) =>
    valueFor(field, value, context.query, from, context.now),
  );
  if (low === undefined || high === undefined || low === null || high === null) {
    return context.query.fail('BETWEEN takes two values that are not NULL: BETWEEN 1 AND 5', 'BETWEEN', from);
  }
  return { op: 'between', field, low, high, negated };
}

function like(negated: boolean, left: AstNode, right: AstNode, context: Context, from: number): Predicate {
  const field = fieldOrFail(left, context, from);
  if (field.kind === 'header' && STRING_ONLY_HEADERS.has(field.name)) {
    return context.query.fail(`LIKE matches text; ${field.name} is not text`, 'LIKE', from);
  }
  const type = nodeType(right);
  if (type !== 'single_quote_string' && type !== 'string') {
    return context.query.fail(`LIKE takes a quoted pattern, e.g. LIKE 'ord-%'`, 'LIKE', from);
  }
  const pattern = stringLiteral(right['value']);
  const escapeNode = isNode(right['escape']) && isNode(right['escape']['value']) ? right['escape']['value'] : undefined;
  if (!escapeNode) return { op: 'like', field, pattern, negated };
  const escape = escapeNode['value'] === undefined ? undefined : stringLiteral(escapeNode['value']);
  if (escape === undefined || Array.from(escape).length !== 1) {
    return context.query.fail("ESCAPE takes exactly one character, e.g. ESCAPE '!'", 'ESCAPE', from);
  }
  if (!escapesArePaired(pattern, escape)) {
    return context.query.fail(
      `The LIKE pattern ends with the escape character ${escape}; escape what follows it`,
      pattern,
      from,
    );
  }
  return { op: 'like', field, pattern, escape, negated };
}

/** Whether every escape character has a character after it (PostgreSQL refuses a pattern that ends in one). */
function escapesArePaired(pattern: string, escape: string): boolean {
  const characters = Array.from(pattern);
  for (let index = 0; index < characters.length; index += 1) {
    if (characters[index] !== escape) continue;
    if (index === characters.length - 1) return false;
    index += 1;
  }
  return true;
}

function subqueryGuard(node: AstNode, context: Context, from: number): void {
  if (isNode(node['ast']) || nodeType(node) === 'select') {
    context.query.fail('Subqueries are not supported: a query reads one address pattern', 'SELECT', from + 1);
  }
}
