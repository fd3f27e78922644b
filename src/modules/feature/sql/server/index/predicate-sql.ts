// A QueryPlan's WHERE as parameterised SQL over message_index: header fields are columns; a property is
// `properties -> key`, a body path `body #> path`, compared by the literal's JSON type (a number property only
// compares with a number, a string with a string: anything else is unknown, as in a broker selector). Every
// literal, key and path is a bind parameter; nothing of the query's text is spliced into the SQL.
import type { Comparison, Field, HeaderName, Predicate, Value } from '../query/plan.ts';

type ColumnType = 'text' | 'time' | 'number' | 'boolean';

const HEADER_COLUMNS: Readonly<Record<HeaderName, { readonly column: string; readonly type: ColumnType }>> = {
  id: { column: 'message_id', type: 'text' },
  address: { column: 'address', type: 'text' },
  queue: { column: 'queue', type: 'text' },
  node: { column: 'node_name', type: 'text' },
  time: { column: 'message_time', type: 'time' },
  priority: { column: 'priority', type: 'number' },
  durable: { column: 'durable', type: 'boolean' },
  expiration: { column: 'expiration', type: 'time' },
  correlation_id: { column: 'correlation_id', type: 'text' },
  reply_to: { column: 'reply_to', type: 'text' },
};

const OPERATORS: Readonly<Record<Comparison, string>> = {
  '=': '=',
  '<>': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** Bind parameters in order; `add` answers the placeholder. */
export class SqlParameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${String(this.values.length)}`;
  }
}

const UNKNOWN = 'NULL::boolean';

function timeOf(value: Value): string | undefined {
  if (typeof value === 'number') return new Date(value).toISOString();
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The literal bound with the column's type, or undefined when it is of another type (the comparison is unknown). */
function headerLiteral(type: ColumnType, value: Value, params: SqlParameters): string | undefined {
  switch (type) {
    case 'text':
      return typeof value === 'string' ? `${params.add(value)}::text` : undefined;
    case 'number':
      return typeof value === 'number' ? `${params.add(value)}::numeric` : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? `${params.add(value)}::boolean` : undefined;
    case 'time': {
      const time = timeOf(value);
      return time === undefined ? undefined : `${params.add(time)}::timestamptz`;
    }
  }
}

/** The JSON value a property or body path points at (SQL NULL when absent). */
function jsonOf(field: Exclude<Field, { kind: 'header' }>, params: SqlParameters): string {
  if (field.kind === 'property') return `properties -> ${params.add(field.key)}::text`;
  return field.path.length === 0 ? 'body' : `body #> ${params.add(field.path)}::text[]`;
}

/** A JSON value as SQL of the literal's type; NULL when it holds another type. */
function typedJson(json: string, value: string | number | boolean, params: SqlParameters): [string, string] {
  const [jsonType, cast] =
    typeof value === 'number'
      ? ['number', 'numeric']
      : typeof value === 'boolean'
        ? ['boolean', 'boolean']
        : ['string', 'text'];
  return [
    `(CASE WHEN jsonb_typeof(${json}) = '${jsonType}' THEN (${json} #>> '{}')::${cast} END)`,
    `${params.add(value)}::${cast}`,
  ];
}

/** A field as text, for LIKE: a header column as text, a JSON value only when it is a string. */
function textOf(field: Field, params: SqlParameters): string {
  if (field.kind === 'header') return `${HEADER_COLUMNS[field.name].column}::text`;
  const json = jsonOf(field, params);
  return `(CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${json} #>> '{}' END)`;
}

function compare(field: Field, comparison: Comparison, value: Value, params: SqlParameters, positive: boolean): string {
  if (value === null) return UNKNOWN;
  const operator = OPERATORS[comparison];
  if (field.kind === 'header') {
    const { column, type } = HEADER_COLUMNS[field.name];
    const literal = headerLiteral(type, value, params);
    return literal === undefined ? UNKNOWN : `${column} ${operator} ${literal}`;
  }
  // Equality on a property where false and unknown filter alike (not under NOT): containment, which the GIN index
  // on properties (jsonb_path_ops) answers.
  if (positive && comparison === '=' && field.kind === 'property') {
    return `properties @> ${params.add(JSON.stringify({ [field.key]: value }))}::jsonb`;
  }
  const [left, right] = typedJson(jsonOf(field, params), value, params);
  return `${left} ${operator} ${right}`;
}

function isNull(field: Field, params: SqlParameters): string {
  if (field.kind === 'header') return `${HEADER_COLUMNS[field.name].column} IS NULL`;
  const json = jsonOf(field, params);
  return `(${json} IS NULL OR jsonb_typeof(${json}) = 'null')`;
}

function negate(sql: string, negated: boolean): string {
  return negated ? `NOT (${sql})` : sql;
}

/** `positive`: no NOT above, so an unknown and a false filter alike. */
export function predicateSql(predicate: Predicate, params: SqlParameters, positive = true): string {
  switch (predicate.op) {
    case 'and':
    case 'or': {
      if (predicate.args.length === 0) return predicate.op === 'and' ? 'TRUE' : 'FALSE';
      const joiner = predicate.op === 'and' ? ' AND ' : ' OR ';
      return `(${predicate.args.map((arg) => predicateSql(arg, params, positive)).join(joiner)})`;
    }
    case 'not':
      return `NOT (${predicateSql(predicate.arg, params, !positive)})`;
    case 'compare':
      return compare(predicate.field, predicate.comparison, predicate.value, params, positive);
    case 'in': {
      const inner = positive !== predicate.negated;
      const any =
        predicate.values.length === 0
          ? 'FALSE'
          : `(${predicate.values.map((value) => compare(predicate.field, '=', value, params, inner)).join(' OR ')})`;
      return negate(any, predicate.negated);
    }
    case 'like': {
      const escape = params.add(predicate.escape ?? '');
      const like = `${textOf(predicate.field, params)} LIKE ${params.add(predicate.pattern)}::text ESCAPE ${escape}::text`;
      return negate(like, predicate.negated);
    }
    case 'between': {
      const inner = positive !== predicate.negated;
      const range = `(${compare(predicate.field, '>=', predicate.low, params, inner)} AND ${compare(predicate.field, '<=', predicate.high, params, inner)})`;
      return negate(range, predicate.negated);
    }
    case 'isNull':
      return negate(isNull(predicate.field, params), predicate.negated);
  }
}

function conjuncts(predicate: Predicate | null): Predicate[] {
  if (!predicate) return [];
  return predicate.op === 'and' ? predicate.args.flatMap((arg) => conjuncts(arg)) : [predicate];
}

const isTime = (field: Field) => field.kind === 'header' && field.name === 'time';

/**
 * The latest lower bound on the message time that every result must meet (from the top-level AND only), or
 * undefined. A message is indexed after it was sent, so this bounds indexed_at too: partitions before it are pruned.
 */
export function timeLowerBound(predicate: Predicate | null): Date | undefined {
  let bound: number | undefined;
  for (const one of conjuncts(predicate)) {
    let value: Value | undefined;
    if (one.op === 'compare' && isTime(one.field) && ['>', '>=', '='].includes(one.comparison)) value = one.value;
    if (one.op === 'between' && !one.negated && isTime(one.field)) value = one.low;
    const time = value === undefined || value === null ? undefined : timeOf(value);
    if (time !== undefined) bound = Math.max(bound ?? -Infinity, Date.parse(time));
  }
  return bound === undefined ? undefined : new Date(bound);
}

/**
 * The top-level conjuncts an index answers (time bounds on the message time, property equalities): together with
 * the cluster and the address pattern they choose the rows a query examines, which the scan cap counts.
 */
export function seekConjuncts(predicate: Predicate | null): Predicate[] {
  return conjuncts(predicate).filter(
    (one) =>
      (one.op === 'compare' &&
        ((isTime(one.field) && one.comparison !== '<>') ||
          (one.field.kind === 'property' && one.comparison === '=' && one.value !== null))) ||
      (one.op === 'between' && !one.negated && isTime(one.field)),
  );
}

/** ORDER BY terms over message_index's columns. */
export function orderTermSql(field: Field, params: SqlParameters): string {
  return field.kind === 'header' ? HEADER_COLUMNS[field.name].column : jsonOf(field, params);
}
