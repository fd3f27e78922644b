// WHERE, SELECT and ORDER BY over one row, in the service: for a live read's residual and for the tail. The rules
// (docs/sql.md, "How values compare") are the index reader's too, so every source answers a query alike:
// - SQL's three-valued logic: a comparison with a missing value (NULL) is unknown, NOT unknown is unknown, and a row
//   matches only when its condition is true.
// - Values compare within their type: number with number, text with text (by code unit), true/false with true/false.
//   A number with text, or anything with a JSON object or array, is unknown: `properties.n = 5` does not match a
//   property holding the text '5' (write `properties.n IN (5, '5')` for both), as in a broker's selector.
// - time and expiration compare as instants, whatever the ISO-8601 spelling.
// - LIKE applies to text; anything else is unknown.
import type { Column, Comparison, Field, Predicate, QueryPlan } from './plan.ts';
import type { MessageRow } from '../message-row.ts';
import { likeMatches } from './like.ts';

/** true, false, or null for unknown. */
type Truth = boolean | null;

const INSTANT_HEADERS = new Set(['time', 'expiration']);

/** The field's value in the row: null when absent; a body path reads into objects by key and arrays by index. */
export function valueOf(field: Field, row: MessageRow): unknown {
  if (field.kind === 'header') return row[field.name] ?? null;
  if (field.kind === 'property')
    return Object.hasOwn(row.properties, field.key) ? (row.properties[field.key] ?? null) : null;
  let current: unknown = row.body;
  for (const step of field.path) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (typeof current === 'object' && current !== null && Object.hasOwn(current, step)) {
      current = (current as Record<string, unknown>)[step];
    } else return null;
  }
  return current ?? null;
}

/** Whether the row meets the condition (true, not false and not unknown). */
export function matches(predicate: Predicate, row: MessageRow): boolean {
  return truthOf(predicate, row) === true;
}

function truthOf(predicate: Predicate, row: MessageRow): Truth {
  switch (predicate.op) {
    case 'and':
      return all(predicate.args.map((arg) => truthOf(arg, row)));
    case 'or':
      return any(predicate.args.map((arg) => truthOf(arg, row)));
    case 'not':
      return not(truthOf(predicate.arg, row));
    case 'compare':
      return compareTruth(predicate.comparison, order(predicate.field, valueOf(predicate.field, row), predicate.value));
    case 'in': {
      const value = valueOf(predicate.field, row);
      const found = any(
        predicate.values.map((candidate) => compareTruth('=', order(predicate.field, value, candidate))),
      );
      return predicate.negated ? not(found) : found;
    }
    case 'between': {
      const value = valueOf(predicate.field, row);
      const within = all([
        compareTruth('>=', order(predicate.field, value, predicate.low)),
        compareTruth('<=', order(predicate.field, value, predicate.high)),
      ]);
      return predicate.negated ? not(within) : within;
    }
    case 'like': {
      const value = valueOf(predicate.field, row);
      if (typeof value !== 'string') return null;
      const matched = likeMatches(value, predicate.pattern, predicate.escape);
      return predicate.negated ? !matched : matched;
    }
    case 'isNull': {
      const isNull = valueOf(predicate.field, row) === null;
      return predicate.negated ? !isNull : isNull;
    }
  }
}

function all(truths: readonly Truth[]): Truth {
  if (truths.includes(false)) return false;
  return truths.includes(null) ? null : true;
}

function any(truths: readonly Truth[]): Truth {
  if (truths.includes(true)) return true;
  return truths.includes(null) ? null : false;
}

function not(truth: Truth): Truth {
  return truth === null ? null : !truth;
}

function compareTruth(comparison: Comparison, ordering: number | null): Truth {
  if (ordering === null) return null;
  switch (comparison) {
    case '=':
      return ordering === 0;
    case '<>':
      return ordering !== 0;
    case '<':
      return ordering < 0;
    case '<=':
      return ordering <= 0;
    case '>':
      return ordering > 0;
    case '>=':
      return ordering >= 0;
  }
}

/** -1, 0 or 1 when the two values compare (same type, neither missing), else null (unknown). */
function order(field: Field, left: unknown, right: unknown): number | null {
  if (left === null || left === undefined || right === null || right === undefined) return null;
  if (field.kind === 'header' && INSTANT_HEADERS.has(field.name)) {
    const [a, b] = [instant(left), instant(right)];
    return a === null || b === null ? null : Math.sign(a - b);
  }
  if (typeof left !== typeof right) return null;
  if (typeof left === 'number' || typeof left === 'string' || typeof left === 'boolean') {
    const b = right as typeof left;
    return left < b ? -1 : left > b ? 1 : 0;
  }
  return null;
}

function instant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? null : millis;
}

/** The row as the query's columns name it; SELECT * is every header, then properties and body. */
export function project(columns: QueryPlan['columns'], row: MessageRow): Record<string, unknown> {
  if (columns === '*') {
    const { properties, body, ...headers } = row;
    return { ...headers, properties, body };
  }
  return Object.fromEntries(columns.map((column: Column) => [column.name, valueOf(column.field, row)]));
}

const TYPE_RANK: Readonly<Record<string, number>> = { boolean: 0, number: 1, string: 2 };

/**
 * ORDER BY as a sort comparator: each key in turn, missing values last in either direction; values of different
 * types sort by type (true/false, numbers, text, then JSON objects and arrays by their JSON text).
 */
export function compareRows(orderBy: QueryPlan['orderBy']): (a: MessageRow, b: MessageRow) => number {
  return (a, b) => {
    for (const { field, direction } of orderBy) {
      const [left, right] = [valueOf(field, a), valueOf(field, b)];
      if (left === null || right === null) {
        if (left !== right) return left === null ? 1 : -1;
        continue;
      }
      const ordering = sortOrder(field, left, right);
      if (ordering !== 0) return direction === 'asc' ? ordering : -ordering;
    }
    return 0;
  };
}

function sortOrder(field: Field, left: unknown, right: unknown): number {
  const same = order(field, left, right);
  if (same !== null) return same;
  const [rankLeft, rankRight] = [TYPE_RANK[typeof left] ?? 3, TYPE_RANK[typeof right] ?? 3];
  if (rankLeft !== rankRight) return Math.sign(rankLeft - rankRight);
  const [textLeft, textRight] = [JSON.stringify(left), JSON.stringify(right)];
  return textLeft < textRight ? -1 : textLeft > textRight ? 1 : 0;
}
