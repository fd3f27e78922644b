// Which part of a WHERE the broker can filter by itself (its core filter syntax, JMS selector grammar with Artemis
// identifiers), and which part the service evaluates. The selector is only ever a pre-filter: every conjunct it
// expresses exactly is dropped from the residual, every one it expresses only as a wider condition (a superset) stays
// in the residual, and the rest is not pushed at all. So `selector AND residual` means what the WHERE means.
//
// What the broker's filter cannot be trusted with, and so is never pushed:
// - node, address and queue (the read chooses those), body paths (the broker filters no body), reply_to;
// - id and correlation_id: the broker compares an AMQP message id or correlation id by its type (a number, a UUID,
//   binary), while the row holds its text, so the broker would drop rows the query matches;
// - NOT over a group, text ordering (<, > on text: the broker refuses it), IN lists holding NULL;
// - LIKE with an unescaped _ (the broker's _ is one UTF-16 unit, PostgreSQL's one character) or an escape before
//   anything but %, _ or itself (the broker then reads the escape literally);
// - properties, unless `pushProperties`: the broker filters the clear values, the query must match what the caller
//   sees (masked unless they hold message:clear, and credentials dropped for everyone). The caller passes true only
//   when the policy leaves every property the WHERE names unchanged for this caller.
import type { Comparison, Predicate, Value } from './plan.ts';

export type Selector =
  | { readonly op: 'and' | 'or'; readonly args: readonly Selector[] }
  | { readonly op: 'not'; readonly arg: Selector }
  | { readonly op: 'compare'; readonly identifier: string; readonly comparison: Comparison; readonly value: Literal }
  | {
      readonly op: 'between';
      readonly identifier: string;
      readonly low: number;
      readonly high: number;
      readonly negated: boolean;
    }
  | {
      readonly op: 'like';
      readonly identifier: string;
      readonly pattern: string;
      readonly escape?: string;
      readonly negated: boolean;
    }
  | { readonly op: 'isNull'; readonly identifier: string; readonly negated: boolean };

type Literal = string | number | boolean;

interface Pushed {
  readonly selector: Selector;
  /** False when the selector is wider than the predicate, which then stays in the residual. */
  readonly exact: boolean;
}

export interface PushdownOptions {
  readonly pushProperties: boolean;
}

export interface BrokerSplit {
  readonly selector: string | null;
  readonly residual: Predicate | null;
}

/** The selector text for the broker (null: filter nothing) and the residual the service evaluates (null: none). */
export function splitForBroker(where: Predicate | null, options: PushdownOptions): BrokerSplit {
  const { filter, residual } = brokerFilter(where, options);
  return { selector: filter ? render(filter) : null, residual };
}

/** The same split with the selector as a tree (what splitForBroker renders). */
export function brokerFilter(
  where: Predicate | null,
  options: PushdownOptions,
): { readonly filter: Selector | null; readonly residual: Predicate | null } {
  const pushed: Selector[] = [];
  const kept: Predicate[] = [];
  for (const conjunct of conjunctsOf(where)) {
    const translated = translate(conjunct, options);
    if (translated) pushed.push(translated.selector);
    if (!translated?.exact) kept.push(conjunct);
  }
  return { filter: joined('and', pushed), residual: kept.length > 1 ? { op: 'and', args: kept } : (kept[0] ?? null) };
}

function conjunctsOf(where: Predicate | null): Predicate[] {
  if (!where) return [];
  return where.op === 'and' ? where.args.flatMap(conjunctsOf) : [where];
}

function joined(op: 'and' | 'or', args: readonly Selector[]): Selector | null {
  if (args.length === 0) return null;
  return args.length === 1 ? (args[0] as Selector) : { op, args };
}

function translate(predicate: Predicate, options: PushdownOptions): Pushed | undefined {
  switch (predicate.op) {
    case 'and': {
      // Dropping a part of an AND only widens it: push what can be, exact only when all of it is.
      const parts = predicate.args.map((arg) => translate(arg, options));
      const pushed = parts.filter((part): part is Pushed => part !== undefined);
      const selector = joined(
        'and',
        pushed.map((part) => part.selector),
      );
      if (!selector) return undefined;
      return { selector, exact: pushed.length === parts.length && pushed.every((part) => part.exact) };
    }
    case 'or': {
      const parts = predicate.args.map((arg) => translate(arg, options));
      if (parts.some((part) => part === undefined)) return undefined;
      const pushed = parts as Pushed[];
      return {
        selector: { op: 'or', args: pushed.map((part) => part.selector) },
        exact: pushed.every((part) => part.exact),
      };
    }
    case 'not':
      // NOT of a wider condition is narrower; the broker's NOT of a type mismatch is true where ours is unknown.
      return undefined;
    default:
      return leaf(predicate, options);
  }
}

type Leaf = Exclude<Predicate, { op: 'and' | 'or' | 'not' }>;

function leaf(predicate: Leaf, options: PushdownOptions): Pushed | undefined {
  const { field } = predicate;
  if (field.kind === 'header') {
    switch (field.name) {
      case 'priority':
        return priorityLeaf(predicate);
      case 'durable':
        return durableLeaf(predicate);
      case 'time':
        return timeLeaf(predicate);
      case 'expiration':
        return expirationLeaf(predicate);
      default:
        return undefined;
    }
  }
  if (field.kind === 'property' && options.pushProperties && isSelectorIdentifier(field.key)) {
    return propertyLeaf(predicate, field.key);
  }
  return undefined;
}

// --- headers -----------------------------------------------------------------------------------------------------

function priorityLeaf(predicate: Leaf): Pushed | undefined {
  const id = 'AMQPriority';
  switch (predicate.op) {
    case 'compare':
      return isNumber(predicate.value) ? exact(compare(id, predicate.comparison, predicate.value)) : undefined;
    case 'in':
      return inLeaf(id, predicate.values, predicate.negated, true, isNumber);
    case 'between':
      return isNumber(predicate.low) && isNumber(predicate.high)
        ? exact({ op: 'between', identifier: id, low: predicate.low, high: predicate.high, negated: predicate.negated })
        : undefined;
    default:
      return undefined;
  }
}

const DURABLE = (value: boolean): string => (value ? 'DURABLE' : 'NON_DURABLE');

function durableLeaf(predicate: Leaf): Pushed | undefined {
  const id = 'AMQDurable';
  if (predicate.op === 'compare' && typeof predicate.value === 'boolean') {
    if (predicate.comparison !== '=' && predicate.comparison !== '<>') return undefined;
    return exact(compare(id, predicate.comparison, DURABLE(predicate.value)));
  }
  if (predicate.op === 'in' && predicate.values.every((value) => typeof value === 'boolean')) {
    const mapped = predicate.values.map((value) => DURABLE(value));
    return inLeaf(id, mapped, predicate.negated, true, (value) => typeof value === 'string');
  }
  return undefined;
}

/**
 * A message without a timestamp has AMQTimestamp 0 at the broker while its row carries when it was read or captured,
 * so a time condition is pushed as "this, or no timestamp" and stays in the residual.
 */
function timeLeaf(predicate: Leaf): Pushed | undefined {
  const id = 'AMQTimestamp';
  const noTimestamp = compare(id, '=', 0);
  const widened = (selector: Selector): Pushed => ({
    selector: { op: 'or', args: [selector, noTimestamp] },
    exact: false,
  });
  if (predicate.op === 'compare') {
    const millis = instantMillis(predicate.value);
    return millis === undefined ? undefined : widened(compare(id, predicate.comparison, millis));
  }
  if (predicate.op === 'between') {
    const [low, high] = [instantMillis(predicate.low), instantMillis(predicate.high)];
    if (low === undefined || high === undefined) return undefined;
    return widened({ op: 'between', identifier: id, low, high, negated: predicate.negated });
  }
  return undefined;
}

/** The broker says 0 for "never expires" where the row says NULL. */
function expirationLeaf(predicate: Leaf): Pushed | undefined {
  const id = 'AMQExpiration';
  const expires = compare(id, '<>', 0);
  if (predicate.op === 'isNull') return exact(compare(id, predicate.negated ? '<>' : '=', 0));
  if (predicate.op === 'compare') {
    const millis = instantMillis(predicate.value);
    if (millis === undefined) return undefined;
    return exact({ op: 'and', args: [expires, compare(id, predicate.comparison, millis)] });
  }
  if (predicate.op === 'between') {
    const [low, high] = [instantMillis(predicate.low), instantMillis(predicate.high)];
    if (low === undefined || high === undefined) return undefined;
    return exact({
      op: 'and',
      args: [expires, { op: 'between', identifier: id, low, high, negated: predicate.negated }],
    });
  }
  return undefined;
}

// --- properties --------------------------------------------------------------------------------------------------

/**
 * The broker answers false where the service answers unknown (a type mismatch), which only matters under a negation:
 * `<>`, NOT IN and NOT LIKE are pushed as wider conditions and stay in the residual.
 */
function propertyLeaf(predicate: Leaf, id: string): Pushed | undefined {
  switch (predicate.op) {
    case 'compare': {
      const { value, comparison } = predicate;
      if (!isLiteral(value)) return undefined;
      // The broker refuses <, <=, >, >= with text or true/false.
      if (!isNumber(value) && comparison !== '=' && comparison !== '<>') return undefined;
      return { selector: compare(id, comparison, value), exact: comparison !== '<>' };
    }
    case 'in':
      return inLeaf(id, predicate.values, predicate.negated, !predicate.negated, isLiteral);
    case 'between':
      return isNumber(predicate.low) && isNumber(predicate.high)
        ? exact({ op: 'between', identifier: id, low: predicate.low, high: predicate.high, negated: predicate.negated })
        : undefined;
    case 'like':
      if (!likeReadsAlike(predicate.pattern, predicate.escape)) return undefined;
      return {
        selector: {
          op: 'like',
          identifier: id,
          pattern: predicate.pattern,
          negated: predicate.negated,
          ...(predicate.escape === undefined ? {} : { escape: predicate.escape }),
        },
        exact: !predicate.negated,
      };
    case 'isNull':
      return exact({ op: 'isNull', identifier: id, negated: predicate.negated });
  }
}

/** `x IN (a, b)` as `(x = a OR x = b)`: the broker's IN takes text only. */
function inLeaf(
  id: string,
  values: readonly Value[],
  negated: boolean,
  isExact: boolean,
  accepts: (value: Value) => boolean,
): Pushed | undefined {
  if (!values.every((value) => value !== null && accepts(value) && isLiteral(value))) return undefined;
  const equalities = values.map((value) => compare(id, '=', value as Literal));
  const any = joined('or', equalities);
  if (!any) return undefined;
  return { selector: negated ? { op: 'not', arg: any } : any, exact: isExact };
}

/** Whether the broker and PostgreSQL read the LIKE pattern the same way (see the header). */
function likeReadsAlike(pattern: string, escape: string | undefined): boolean {
  const characters = Array.from(pattern);
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index];
    if (escape !== undefined && character === escape) {
      const next = characters[index + 1];
      if (next !== '%' && next !== '_' && next !== escape) return false;
      index += 1;
    } else if (character === '_') return false;
  }
  return true;
}

const RESERVED = new Set([
  'NOT',
  'AND',
  'OR',
  'BETWEEN',
  'LIKE',
  'IN',
  'IS',
  'ESCAPE',
  'NULL',
  'TRUE',
  'FALSE',
  'XPATH',
  'XQUERY',
]);

/**
 * A property key the selector can name bare: a Java-style identifier, not a keyword, and not starting with JMS or AMQ
 * (the broker reads those as its own header fields).
 */
export function isSelectorIdentifier(key: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) && !RESERVED.has(key.toUpperCase()) && !/^(JMS|AMQ)/i.test(key);
}

// --- building and rendering --------------------------------------------------------------------------------------

function exact(selector: Selector): Pushed {
  return { selector, exact: true };
}

function compare(identifier: string, comparison: Comparison, value: Literal): Selector {
  return { op: 'compare', identifier, comparison, value };
}

function isNumber(value: Value): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))
  );
}

function isLiteral(value: Value): value is Literal {
  return typeof value === 'string' || typeof value === 'boolean' || isNumber(value);
}

function instantMillis(value: Value): number | undefined {
  if (typeof value !== 'string') return undefined;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? undefined : millis;
}

function render(selector: Selector): string {
  switch (selector.op) {
    case 'and':
    case 'or':
      return selector.args.map((arg) => `(${render(arg)})`).join(selector.op === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT (${render(selector.arg)})`;
    case 'compare':
      return `${selector.identifier} ${selector.comparison} ${literal(selector.value)}`;
    case 'between':
      return `${selector.identifier} ${selector.negated ? 'NOT ' : ''}BETWEEN ${literal(selector.low)} AND ${literal(selector.high)}`;
    case 'like': {
      const escape = selector.escape === undefined ? '' : ` ESCAPE ${literal(selector.escape)}`;
      return `${selector.identifier} ${selector.negated ? 'NOT ' : ''}LIKE ${literal(selector.pattern)}${escape}`;
    }
    case 'isNull':
      return `${selector.identifier} IS ${selector.negated ? 'NOT ' : ''}NULL`;
  }
}

/** A selector literal: text in single quotes with quotes doubled (the grammar has no other escape), numbers as such. */
function literal(value: Literal): string {
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
