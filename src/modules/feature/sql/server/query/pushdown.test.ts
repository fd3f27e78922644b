import { describe, expect, it } from 'vitest';
import type { MessageRow, PropertyValue } from '../message-row.ts';
import { matches } from './evaluate.ts';
import { parseQuery } from './parse.ts';
import type { Predicate } from './plan.ts';
import { brokerFilter, isSelectorIdentifier, splitForBroker, type Selector } from './pushdown.ts';

const NOW = new Date('2026-11-28T08:00:00.000Z');
const PUSH = { pushProperties: true };

function whereOf(condition: string): Predicate | null {
  return parseQuery(`SELECT * FROM q WHERE ${condition}`, NOW).where;
}

function split(condition: string, options = PUSH) {
  return splitForBroker(whereOf(condition), options);
}

describe('splitForBroker selector text', () => {
  it('pushes header fields with the broker identifiers', () => {
    expect(split('priority >= 7 AND durable = true').selector).toBe("(AMQPriority >= 7) AND (AMQDurable = 'DURABLE')");
    expect(split('durable <> true').selector).toBe("AMQDurable <> 'DURABLE'");
    expect(split('priority IN (1, 2)').selector).toBe('(AMQPriority = 1) OR (AMQPriority = 2)');
    expect(split('priority NOT BETWEEN 3 AND 5')).toEqual({
      selector: 'AMQPriority NOT BETWEEN 3 AND 5',
      residual: null,
    });
    expect(split('expiration IS NULL')).toEqual({ selector: 'AMQExpiration = 0', residual: null });
    expect(split("expiration < '2026-11-28T09:00:00Z'").selector).toBe(
      `(AMQExpiration <> 0) AND (AMQExpiration < ${Date.parse('2026-11-28T09:00:00Z')})`,
    );
  });

  it('pushes a time range as "in range or without a timestamp" and keeps it in the residual', () => {
    const result = split(`time > now() - interval '1 hour'`);
    expect(result.selector).toBe(`(AMQTimestamp > ${Date.parse('2026-11-28T07:00:00Z')}) OR (AMQTimestamp = 0)`);
    expect(result.residual).toEqual(whereOf(`time > now() - interval '1 hour'`));
  });

  it('pushes properties by name only when asked and only valid identifiers', () => {
    expect(split(`properties._AMQ_CORRELATION_ID = 'c-1'`).selector).toBe("_AMQ_CORRELATION_ID = 'c-1'");
    expect(split(`properties.orderId = 7731`, { pushProperties: false })).toEqual({
      selector: null,
      residual: whereOf('properties.orderId = 7731'),
    });
    expect(split(`properties['order-id'] = '7731'`).selector).toBeNull();
    expect(split(`properties.JMSType = 'x'`).selector).toBeNull();
    expect(split(`properties.AMQPriority = 1`).selector).toBeNull();
    expect(split(`properties."like" = 'x'`).selector).toBeNull();
    expect(split(`properties.amount BETWEEN 1.5 AND 1e3`).selector).toBe('amount BETWEEN 1.5 AND 1000');
    expect(split(`properties.vip = false AND properties.k IS NOT NULL`).selector).toBe(
      '(vip = FALSE) AND (k IS NOT NULL)',
    );
    expect(split(`properties.k LIKE '50!%%' ESCAPE '!'`).selector).toBe("k LIKE '50!%%' ESCAPE '!'");
  });

  it('doubles quotes so no input breaks out of a string literal', () => {
    const result = split(`properties.k = 'x'' OR 1=1 OR k = ''' AND properties.n LIKE '%''--%'`);
    expect(result.selector).toBe(`(k = 'x'' OR 1=1 OR k = ''') AND (n LIKE '%''--%')`);
    expect(result.residual).toBeNull();
  });

  it('never pushes node, address, queue, id, correlation_id, reply_to or body paths', () => {
    for (const condition of [
      "node = 'a'",
      "address = 'a'",
      "queue = 'a'",
      "id = 'a'",
      "correlation_id = 'a'",
      "reply_to = 'a'",
      "body->'a' = 'b'",
    ]) {
      expect(split(condition)).toEqual({ selector: null, residual: whereOf(condition) });
    }
  });

  it('pushes an OR only when every part is pushed', () => {
    expect(split("priority = 9 OR node = 'a'").selector).toBeNull();
    expect(split("priority = 9 OR properties.k = 'a'").selector).toBe("(AMQPriority = 9) OR (k = 'a')");
    const mixed = split("(priority = 9 OR properties.k = 'a') AND node = 'n1' AND durable = false");
    expect(mixed.selector).toBe("((AMQPriority = 9) OR (k = 'a')) AND (AMQDurable = 'NON_DURABLE')");
    expect(mixed.residual).toEqual(whereOf("node = 'n1'"));
  });

  it('keeps what the broker cannot say the same way in the residual', () => {
    expect(split('NOT priority = 4')).toEqual({ selector: null, residual: whereOf('NOT priority = 4') });
    expect(split("properties.k LIKE 'a_c'").selector).toBeNull();
    expect(split("properties.k LIKE 'a!bc' ESCAPE '!'").selector).toBeNull();
    expect(split("properties.k > 'a'").selector).toBeNull();
    expect(split("properties.k IN ('a', NULL)").selector).toBeNull();
    const notEqual = split("properties.k <> 'a'");
    expect(notEqual.selector).toBe("k <> 'a'");
    expect(notEqual.residual).toEqual(whereOf("properties.k <> 'a'"));
  });

  it('gives nothing for no WHERE', () => {
    expect(splitForBroker(null, PUSH)).toEqual({ selector: null, residual: null });
  });
});

describe('isSelectorIdentifier', () => {
  it('accepts Java-style names that are not keywords or broker headers', () => {
    expect(['orderId', '_AMQ_X', '$x', 'a1'].every(isSelectorIdentifier)).toBe(true);
    expect(
      ['order-id', 'a.b', '1a', 'IN', 'null', 'JMSType', 'AMQSize', '', "a'b", 'a b'].some(isSelectorIdentifier),
    ).toBe(false);
  });
});

// --- selector AND residual means the WHERE -------------------------------------------------------------------------

/**
 * What the broker holds for a message, beside the row the service builds from it: the clear property values, the
 * timestamp (0 when the message carried none, the row then has when it was read) and the expiration (0 for never).
 */
interface BrokerView {
  readonly timestamp: number;
  readonly expiration: number;
  readonly priority: number;
  readonly durable: boolean;
  readonly properties: Readonly<Record<string, PropertyValue>>;
}

type Truth = boolean | null;

/** Artemis' filter semantics for the selectors pushdown emits (ComparisonExpression, LogicExpression). */
function brokerTruth(selector: Selector, message: BrokerView): Truth {
  const identifier = (id: string): unknown => {
    if (id === 'AMQPriority') return message.priority;
    if (id === 'AMQDurable') return message.durable ? 'DURABLE' : 'NON_DURABLE';
    if (id === 'AMQTimestamp') return message.timestamp;
    if (id === 'AMQExpiration') return message.expiration;
    return message.properties[id] ?? null;
  };
  const compare = (left: unknown, right: unknown): number | 'mismatch' | null => {
    if (left === null) return null;
    if (typeof left !== typeof right) return 'mismatch';
    return (left as number) < (right as number) ? -1 : (left as number) > (right as number) ? 1 : 0;
  };
  const not = (truth: Truth): Truth => (truth === null ? null : !truth);
  switch (selector.op) {
    case 'and': {
      const truths = selector.args.map((arg) => brokerTruth(arg, message));
      return truths.includes(false) ? false : truths.includes(null) ? null : true;
    }
    case 'or': {
      const truths = selector.args.map((arg) => brokerTruth(arg, message));
      return truths.includes(true) ? true : truths.includes(null) ? null : false;
    }
    case 'not':
      return not(brokerTruth(selector.arg, message));
    case 'compare': {
      const ordering = compare(identifier(selector.identifier), selector.value);
      if (ordering === null) return null;
      if (ordering === 'mismatch') return selector.comparison === '<>' ? true : false;
      const test = {
        '=': ordering === 0,
        '<>': ordering !== 0,
        '<': ordering < 0,
        '<=': ordering <= 0,
        '>': ordering > 0,
        '>=': ordering >= 0,
      };
      return test[selector.comparison];
    }
    case 'between': {
      const value = identifier(selector.identifier);
      const low = compare(value, selector.low);
      const high = compare(value, selector.high);
      if (low === null || high === null) return null;
      if (low === 'mismatch' || high === 'mismatch') return false;
      return selector.negated ? low < 0 || high > 0 : low >= 0 && high <= 0;
    }
    case 'like': {
      const value = identifier(selector.identifier);
      if (value === null) return null;
      if (typeof value !== 'string') return selector.negated;
      let source = '';
      const characters = Array.from(selector.pattern);
      for (let index = 0; index < characters.length; index += 1) {
        const character = characters[index] ?? '';
        const next = characters[index + 1];
        if (character === selector.escape && (next === '%' || next === '_' || next === selector.escape)) {
          source += next.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          index += 1;
        } else if (character === '%') source += '.*';
        else if (character === '_') source += '[\\s\\S]';
        else source += character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      const matched = new RegExp(`^${source}$`, 's').test(value);
      return selector.negated ? !matched : matched;
    }
    case 'isNull': {
      const isNull = identifier(selector.identifier) === null;
      return selector.negated ? !isNull : isNull;
    }
  }
}

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = Date.parse('2026-11-28T07:00:00.000Z');
const PROPERTY_VALUES: readonly (PropertyValue | undefined)[] = [
  'a',
  "o'k",
  '5',
  'a%b',
  'a_c',
  'abc',
  5,
  7.5,
  0,
  true,
  false,
  null,
  undefined,
];
const LITERALS = ["'a'", "'o''k'", "'5'", "'abc'", '5', '7.5', '0', 'true', 'false'];

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)] as T;
}

function sample(next: () => number): { row: MessageRow; broker: BrokerView } {
  const properties: Record<string, PropertyValue> = {};
  for (const key of ['k', 'n']) {
    const value = pick(next, PROPERTY_VALUES);
    if (value !== undefined) properties[key] = value;
  }
  const timestamp = next() < 0.2 ? 0 : BASE + Math.floor(next() * 4) * 1_800_000;
  const readAt = BASE + Math.floor(next() * 4) * 1_800_000;
  const expiration = next() < 0.4 ? 0 : BASE + Math.floor(next() * 4) * 1_800_000;
  const priority = Math.floor(next() * 10);
  const durable = next() < 0.5;
  const row: MessageRow = {
    id: 'm',
    address: 'orders',
    queue: 'orders',
    node: pick(next, ['a', 'b']),
    time: new Date(timestamp === 0 ? readAt : timestamp).toISOString(),
    priority,
    durable,
    expiration: expiration === 0 ? null : new Date(expiration).toISOString(),
    correlation_id: null,
    reply_to: null,
    properties,
    body: { v: pick(next, ['a', 5, null]) },
  };
  return { row, broker: { timestamp, expiration, priority, durable, properties } };
}

function condition(next: () => number, depth: number): string {
  const roll = next();
  if (depth > 0 && roll < 0.3) {
    const op = pick(next, ['AND', 'OR']);
    return `(${condition(next, depth - 1)} ${op} ${condition(next, depth - 1)})`;
  }
  if (depth > 0 && roll < 0.37) return `NOT (${condition(next, depth - 1)})`;
  const key = pick(next, ['properties.k', 'properties.n']);
  const instant = `'${new Date(BASE + Math.floor(next() * 4) * 1_800_000).toISOString()}'`;
  const comparison = pick(next, ['=', '<>', '<', '<=', '>', '>=']);
  return pick(next, [
    () => `${key} ${comparison} ${pick(next, LITERALS)}`,
    () => `${key} ${pick(next, ['IN', 'NOT IN'])} (${pick(next, LITERALS)}, ${pick(next, LITERALS)})`,
    () =>
      `${key} ${pick(next, ['LIKE', 'NOT LIKE'])} '${pick(next, ['a%', '%b', 'a!%b', 'a_c', '%', 'a!_c', "o''%"])}' ESCAPE '!'`,
    () => `${key} ${pick(next, ['BETWEEN', 'NOT BETWEEN'])} ${pick(next, ['0 AND 5', '5 AND 7.5', '6 AND 9'])}`,
    () => `${key} ${pick(next, ['IS NULL', 'IS NOT NULL'])}`,
    () => `priority ${comparison} ${Math.floor(next() * 10)}`,
    () => `priority ${pick(next, ['IN', 'NOT IN'])} (4, ${Math.floor(next() * 10)})`,
    () => `priority ${pick(next, ['BETWEEN', 'NOT BETWEEN'])} 3 AND 6`,
    () => `durable ${pick(next, ['=', '<>'])} ${pick(next, ['true', 'false'])}`,
    () => `time ${comparison} ${instant}`,
    () => `time ${pick(next, ['BETWEEN', 'NOT BETWEEN'])} ${instant} AND '2026-11-28T08:30:00Z'`,
    () => `expiration ${comparison} ${instant}`,
    () => `expiration ${pick(next, ['IS NULL', 'IS NOT NULL'])}`,
    () => `node = '${pick(next, ['a', 'b'])}'`,
    () => `body->'v' = ${pick(next, ["'a'", '5'])}`,
  ])();
}

describe('selector AND residual means the WHERE', () => {
  it.each([1, 2, 3, 4, 5])(
    'holds for 200 random WHEREs over 40 messages each (seed %i)',
    { timeout: 30_000 },
    (seed) => {
      const next = random(seed);
      const messages = Array.from({ length: 40 }, () => sample(next));
      let pushedSome = 0;
      for (let round = 0; round < 200; round += 1) {
        const text = `${condition(next, 2)} AND ${condition(next, 2)}`;
        const where = whereOf(text);
        if (!where) throw new Error('no WHERE');
        const { filter, residual } = brokerFilter(where, PUSH);
        if (filter) pushedSome += 1;
        for (const { row, broker } of messages) {
          const split =
            (filter ? brokerTruth(filter, broker) === true : true) && (residual ? matches(residual, row) : true);
          if (split !== matches(where, row)) {
            throw new Error(
              `seed ${seed}: ${text}\nrow ${JSON.stringify(row)}\nselector ${splitForBroker(where, PUSH).selector}`,
            );
          }
        }
      }
      // The check means something only if most WHEREs push something down.
      expect(pushedSome).toBeGreaterThan(100);
    },
  );
});
