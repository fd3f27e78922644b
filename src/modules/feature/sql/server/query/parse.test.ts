import { describe, expect, it } from 'vitest';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { MAX_QUERY_LENGTH, parseQuery } from './parse.ts';

const NOW = new Date('2026-11-28T08:00:00.000Z');

function refusal(text: string): {
  detail: string;
  token: string;
  position: { line: number; column: number; offset: number };
} {
  try {
    parseQuery(text, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    const problem = (error as ProblemError).problem;
    expect(problem.type).toBe('sql-syntax');
    expect(problem.status).toBe(400);
    return problem as never;
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('parseQuery', () => {
  it('reads the 3 a.m. question: order 7731 through orders.* in the last hour', () => {
    const plan = parseQuery(
      `SELECT id, node, time, properties['order-id'] AS order_id FROM "orders.*"
       WHERE properties['order-id'] = '7731' AND time > now() - interval '1 hour' ORDER BY time DESC LIMIT 50`,
      NOW,
    );
    expect(plan).toEqual({
      addressPattern: 'orders.*',
      columns: [
        { field: { kind: 'header', name: 'id' }, name: 'id' },
        { field: { kind: 'header', name: 'node' }, name: 'node' },
        { field: { kind: 'header', name: 'time' }, name: 'time' },
        { field: { kind: 'property', key: 'order-id' }, name: 'order_id' },
      ],
      where: {
        op: 'and',
        args: [
          { op: 'compare', comparison: '=', field: { kind: 'property', key: 'order-id' }, value: '7731' },
          {
            op: 'compare',
            comparison: '>',
            field: { kind: 'header', name: 'time' },
            value: '2026-11-28T07:00:00.000Z',
          },
        ],
      },
      orderBy: [{ field: { kind: 'header', name: 'time' }, direction: 'desc' }],
      limit: 50,
    });
  });
});

describe('parseQuery columns and FROM', () => {
  it('takes SELECT * and every way of naming a property or a body path', () => {
    expect(parseQuery('SELECT * FROM orders', NOW).columns).toBe('*');
    const plan = parseQuery(
      `SELECT properties._AMQ_CORRELATION_ID, properties."order-id", properties['a.b'], properties->'x',
              body, body->'customer'->>'id', body['items'][0], body->'items'->0->>'sku' AS sku
       FROM "orders.#"`,
      NOW,
    );
    expect(plan.addressPattern).toBe('orders.#');
    expect(plan.columns).toEqual([
      { field: { kind: 'property', key: '_AMQ_CORRELATION_ID' }, name: 'properties._AMQ_CORRELATION_ID' },
      { field: { kind: 'property', key: 'order-id' }, name: "properties['order-id']" },
      { field: { kind: 'property', key: 'a.b' }, name: "properties['a.b']" },
      { field: { kind: 'property', key: 'x' }, name: 'properties.x' },
      { field: { kind: 'body', path: [] }, name: 'body' },
      { field: { kind: 'body', path: ['customer', 'id'] }, name: "body->'customer'->'id'" },
      { field: { kind: 'body', path: ['items', '0'] }, name: "body->'items'->'0'" },
      { field: { kind: 'body', path: ['items', '0', 'sku'] }, name: 'sku' },
    ]);
  });

  it('reads header names without case and an unquoted dotted address', () => {
    const plan = parseQuery('SELECT ID, Priority FROM orders.eu', NOW);
    expect(plan.columns).toEqual([
      { field: { kind: 'header', name: 'id' }, name: 'id' },
      { field: { kind: 'header', name: 'priority' }, name: 'priority' },
    ]);
    expect(plan.addressPattern).toBe('orders.eu');
  });

  it('takes a single-quoted pattern and a trailing semicolon', () => {
    expect(parseQuery("SELECT * FROM 'orders.*';", NOW).addressPattern).toBe('orders.*');
  });

  it('orders by a column or an alias, and takes LIMIT', () => {
    const plan = parseQuery(`SELECT properties['order-id'] AS oid FROM q ORDER BY oid DESC, time LIMIT 0`, NOW);
    expect(plan.orderBy).toEqual([
      { field: { kind: 'property', key: 'order-id' }, direction: 'desc' },
      { field: { kind: 'header', name: 'time' }, direction: 'asc' },
    ]);
    expect(plan.limit).toBe(0);
    expect(parseQuery('SELECT * FROM q', NOW).limit).toBeNull();
  });
});

describe('parseQuery WHERE', () => {
  const where = (condition: string) => parseQuery(`SELECT * FROM q WHERE ${condition}`, NOW).where;
  const p = (key: string) => ({ kind: 'property', key }) as const;

  it('gives AND precedence over OR, whatever the parser groups', () => {
    // node-sql-parser 5.4.0 returns (a OR b) AND c for this text; SQL means a OR (b AND c).
    expect(where(`properties.a = 1 OR properties.b = 2 AND properties.c = 3`)).toEqual({
      op: 'or',
      args: [
        { op: 'compare', comparison: '=', field: p('a'), value: 1 },
        {
          op: 'and',
          args: [
            { op: 'compare', comparison: '=', field: p('b'), value: 2 },
            { op: 'compare', comparison: '=', field: p('c'), value: 3 },
          ],
        },
      ],
    });
    expect(where(`(properties.a = 1 OR properties.b = 2) AND properties.c = 3`)).toEqual({
      op: 'and',
      args: [
        {
          op: 'or',
          args: [
            { op: 'compare', comparison: '=', field: p('a'), value: 1 },
            { op: 'compare', comparison: '=', field: p('b'), value: 2 },
          ],
        },
        { op: 'compare', comparison: '=', field: p('c'), value: 3 },
      ],
    });
  });

  it('reads NOT, IN, LIKE with ESCAPE, BETWEEN and IS NULL', () => {
    expect(
      where(
        `NOT (priority > 4 OR durable = false) AND node IN ('a', 'b') AND properties.k NOT LIKE 'x!%%' ESCAPE '!'
         AND body->'n' NOT BETWEEN 1 AND 5 AND reply_to IS NULL AND expiration IS NOT NULL AND NOT queue <> 'q'`,
      ),
    ).toEqual({
      op: 'and',
      args: [
        {
          op: 'not',
          arg: {
            op: 'or',
            args: [
              { op: 'compare', comparison: '>', field: { kind: 'header', name: 'priority' }, value: 4 },
              { op: 'compare', comparison: '=', field: { kind: 'header', name: 'durable' }, value: false },
            ],
          },
        },
        { op: 'in', field: { kind: 'header', name: 'node' }, values: ['a', 'b'], negated: false },
        { op: 'like', field: p('k'), pattern: 'x!%%', escape: '!', negated: true },
        { op: 'between', field: { kind: 'body', path: ['n'] }, low: 1, high: 5, negated: true },
        { op: 'isNull', field: { kind: 'header', name: 'reply_to' }, negated: false },
        { op: 'isNull', field: { kind: 'header', name: 'expiration' }, negated: true },
        {
          op: 'not',
          arg: { op: 'compare', comparison: '<>', field: { kind: 'header', name: 'queue' }, value: 'q' },
        },
      ],
    });
  });

  it('turns a value on the left around, != into <>, and a number for a text header into text', () => {
    expect(where(`4 < priority`)).toEqual({
      op: 'compare',
      comparison: '>',
      field: { kind: 'header', name: 'priority' },
      value: 4,
    });
    expect(where(`id != 7731`)).toEqual({
      op: 'compare',
      comparison: '<>',
      field: { kind: 'header', name: 'id' },
      value: '7731',
    });
  });

  it('resolves times to ISO instants with the given now', () => {
    const time = (text: string) => {
      const predicate = where(`time >= ${text}`);
      return predicate?.op === 'compare' ? predicate.value : undefined;
    };
    expect(time(`now()`)).toBe('2026-11-28T08:00:00.000Z');
    expect(time(`now() - interval '90 minutes'`)).toBe('2026-11-28T06:30:00.000Z');
    expect(time(`now() - interval '1' hour`)).toBe('2026-11-28T07:00:00.000Z');
    expect(time(`NOW() + INTERVAL '1 day 2 hours'`)).toBe('2026-11-29T10:00:00.000Z');
    expect(time(`'2026-11-28T09:00:00+01:00'`)).toBe('2026-11-28T08:00:00.000Z');
    expect(time(`'2026-11-28 07:15'`)).toBe('2026-11-28T07:15:00.000Z');
    expect(time(`timestamp '2026-11-28T07:00:00Z'`)).toBe('2026-11-28T07:00:00.000Z');
    expect(time(`'2026-11-28T07:00:00Z'::timestamptz`)).toBe('2026-11-28T07:00:00.000Z');
  });
});

describe('parseQuery refusals point at the token', () => {
  it('points a syntax error at the token the parser stopped on', () => {
    const problem = refusal('SELECT *\nFRM orders');
    expect(problem.token).toBe('FRM');
    expect(problem.position).toEqual({ line: 2, column: 1, offset: 9 });
    expect(problem.detail).toContain('Unexpected FRM');
    expect(problem.detail).toContain('FROM');
  });

  it('says an unquoted # pattern needs quotes (an unquoted orders.* reads as it is)', () => {
    const problem = refusal('SELECT * FROM orders.#');
    expect(problem.token).toBe('#');
    expect(problem.position.offset).toBe(21);
    expect(problem.detail).toContain('FROM "orders.#"');
    expect(parseQuery('SELECT * FROM orders.*', NOW).addressPattern).toBe('orders.*');
  });

  it('says a query that ends too early does', () => {
    const problem = refusal('SELECT * FROM q WHERE priority =');
    expect(problem.detail).toContain('ends too early');
    expect(problem.position.offset).toBe(32);
  });

  it.each([
    ['SELECT * FROM q WHERE bogus = 1', 'bogus', 'Unknown column "bogus"'],
    ['SELECT * FROM a JOIN b ON a.x = b.y', 'JOIN', 'joins'],
    ['SELECT * FROM a, b', ',', 'joins'],
    ['SELECT * FROM q WHERE id IN (SELECT id FROM r)', 'SELECT', 'Subqueries'],
    ['SELECT * FROM (SELECT * FROM r)', 'SELECT', 'Subqueries'],
    ['SELECT node FROM q GROUP BY node', 'GROUP', 'GROUP BY'],
    ['SELECT upper(node) FROM q', 'upper', 'upper()'],
    ['SELECT * FROM q WHERE lower(node) = 1', 'lower', 'lower()'],
    ['SELECT * FROM q WHERE time > now(1)', 'now', 'no arguments'],
    ['INSERT INTO q VALUES (1)', 'INSERT', 'Only SELECT'],
    ['UPDATE q SET a = 1', 'UPDATE', 'Only SELECT'],
    ['SELECT * FROM q; DELETE FROM q', 'DELETE', 'One statement'],
    ['SELECT * FROM q; SELECT * FROM r', 'SELECT', 'One statement'],
    ['SELECT a FROM q UNION SELECT b FROM r', 'UNION', 'UNION'],
    ['SELECT DISTINCT node FROM q', 'DISTINCT', 'DISTINCT'],
    ['SELECT * FROM q LIMIT 5 OFFSET 10', 'OFFSET', 'OFFSET'],
    ["SELECT * FROM q WHERE priority = 'high'", 'high', 'priority is a number'],
    ["SELECT * FROM q WHERE durable = 'yes'", 'yes', 'durable is true or false'],
    ["SELECT * FROM q WHERE time > 'yesterday'", 'yesterday', 'ISO-8601'],
    ["SELECT * FROM q WHERE time > now() - interval '1 month'", 'interval', 'interval'],
    ['SELECT * FROM q WHERE node = now()', 'now', 'only with time'],
    ['SELECT * FROM q WHERE node = NULL', 'NULL', 'IS NULL'],
    ['SELECT * FROM q WHERE node = address', '=', 'another column'],
    ['SELECT * FROM q WHERE node = "x"', 'x', 'single quotes'],
    ["SELECT * FROM q WHERE node ILIKE 'a%'", 'ILIKE', 'ILIKE'],
    ["SELECT * FROM q WHERE priority LIKE '4%'", 'LIKE', 'not text'],
    ["SELECT * FROM q WHERE node LIKE 'a%' ESCAPE 'xy'", 'ESCAPE', 'one character'],
    ['SELECT properties FROM q', 'properties', 'one key'],
    ['SELECT body.customer.id FROM q', 'body', "body->'customer'"],
    ['SELECT * FROM "ord*.eu"', 'ord*.eu', 'whole word'],
    ['SELECT * FROM q t', 't', 'alias'],
    ['SELECT * FROM q ORDER BY node NULLS FIRST', 'NULLS', 'NULLS'],
    ['SELECT *, id FROM q', '*', 'stands alone'],
    ['SELECT * FROM q WHERE priority', 'priority', 'compares a column'],
  ])('%s → points at %s', (text, token, words) => {
    const problem = refusal(text);
    expect(problem.token.replace(/^["']|["']$/g, '')).toBe(token);
    expect(problem.detail).toContain(words);
    expect(text.slice(problem.position.offset, problem.position.offset + problem.token.length)).toBe(problem.token);
  });

  it('refuses an empty query and one over the length limit', () => {
    expect(refusal('   ').detail).toContain('empty');
    const long = `SELECT * FROM q WHERE node = '${'x'.repeat(MAX_QUERY_LENGTH)}'`;
    const problem = refusal(long);
    expect(problem.detail).toContain(`limit is ${MAX_QUERY_LENGTH}`);
    expect(problem.position.offset).toBe(MAX_QUERY_LENGTH);
  });

  it('counts lines and columns from 1 and offsets from 0', () => {
    const problem = refusal('SELECT *\n  FROM q\n  WHERE  nope = 1');
    expect(problem.position).toEqual({ line: 3, column: 10, offset: 27 });
    expect(problem.token).toBe('nope');
  });
});

describe('parseQuery LIKE escapes', () => {
  it('refuses a pattern that ends in its escape character', () => {
    const problem = refusal(`SELECT * FROM q WHERE node LIKE 'ab!' ESCAPE '!'`);
    expect(problem.detail).toContain('escape character');
    expect(problem.token).toBe("'ab!'");
    expect(parseQuery(`SELECT * FROM q WHERE node LIKE 'a!!' ESCAPE '!'`, NOW).where).toMatchObject({ pattern: 'a!!' });
  });
});

describe('parseQuery numbers', () => {
  it('reads decimals and refuses integers too large to compare exactly', () => {
    expect(parseQuery('SELECT * FROM q WHERE properties.a = 120.0', NOW).where).toMatchObject({ value: 120 });
    expect(parseQuery('SELECT * FROM q WHERE properties.a = .5', NOW).where).toMatchObject({ value: 0.5 });
    expect(parseQuery('SELECT * FROM q WHERE properties.a = -3', NOW).where).toMatchObject({ value: -3 });
    const problem = refusal('SELECT * FROM q WHERE properties.a = 12345678901234567890');
    expect(problem.token).toBe('12345678901234567890');
    expect(problem.detail).toContain('quote it');
  });
});

describe('parseQuery strings as PostgreSQL reads them', () => {
  it('undoubles quotes and takes backslashes as themselves', () => {
    const plan = parseQuery(
      String.raw`SELECT properties['it''s'] FROM q WHERE properties.a = 'o''k' AND properties.b = 'p\nq' AND properties.c = 'r\\s' AND properties.d LIKE 'x\%' ESCAPE '\'`,
      NOW,
    );
    expect(plan.columns).toEqual([{ field: { kind: 'property', key: "it's" }, name: "properties['it''s']" }]);
    expect(plan.where).toMatchObject({
      args: [
        { value: "o'k" },
        { value: String.raw`p\nq` },
        { value: String.raw`r\\s` },
        { pattern: String.raw`x\%`, escape: '\\' },
      ],
    });
  });

  it('refuses the character that stands in for backslashes while parsing', () => {
    expect(refusal("SELECT * FROM q WHERE node = 'a\uE000'").position.offset).toBe(31);
  });
});
