import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../message-row.ts';
import { compareRows, matches, project, valueOf } from './evaluate.ts';
import { parseQuery } from './parse.ts';

const NOW = new Date('2026-11-28T08:00:00.000Z');

function row(overrides: Partial<MessageRow> = {}): MessageRow {
  return {
    id: 'm-1',
    address: 'orders.eu',
    queue: 'orders.eu.billing',
    node: 'broker-a',
    time: '2026-11-28T07:30:00.000Z',
    priority: 4,
    durable: true,
    expiration: null,
    correlation_id: 'c-9',
    reply_to: null,
    properties: { 'order-id': '7731', amount: 120, vip: true, note: null },
    body: { customer: { id: 'cu-1', tags: ['a', 'b'] }, items: [{ sku: 'X-1', qty: 2 }] },
    ...overrides,
  };
}

/** Whether `condition` holds for the row, through the real parser. */
function holds(condition: string, subject: MessageRow = row()): boolean {
  const { where } = parseQuery(`SELECT * FROM q WHERE ${condition}`, NOW);
  if (!where) throw new Error('no WHERE');
  return matches(where, subject);
}

describe('valueOf', () => {
  it('reads headers, properties and body paths, null when absent', () => {
    const subject = row();
    expect(valueOf({ kind: 'header', name: 'node' }, subject)).toBe('broker-a');
    expect(valueOf({ kind: 'property', key: 'order-id' }, subject)).toBe('7731');
    expect(valueOf({ kind: 'property', key: 'missing' }, subject)).toBeNull();
    expect(valueOf({ kind: 'property', key: 'constructor' }, subject)).toBeNull();
    expect(valueOf({ kind: 'body', path: ['customer', 'id'] }, subject)).toBe('cu-1');
    expect(valueOf({ kind: 'body', path: ['items', '0', 'qty'] }, subject)).toBe(2);
    expect(valueOf({ kind: 'body', path: ['customer', 'tags'] }, subject)).toEqual(['a', 'b']);
    expect(valueOf({ kind: 'body', path: ['items', 'x'] }, subject)).toBeNull();
    expect(valueOf({ kind: 'body', path: ['customer', 'id', 'deeper'] }, subject)).toBeNull();
    expect(valueOf({ kind: 'body', path: [] }, row({ body: 'plain text' }))).toBe('plain text');
  });
});

describe('matches', () => {
  it('answers the 3 a.m. question', () => {
    expect(holds(`properties['order-id'] = '7731' AND time > now() - interval '1 hour'`)).toBe(true);
    expect(holds(`properties['order-id'] = '7731' AND time > now() - interval '10 minutes'`)).toBe(false);
  });

  it('compares values within their type only', () => {
    expect(holds(`properties.amount > 100`)).toBe(true);
    expect(holds(`properties.amount = 120.0`)).toBe(true);
    expect(holds(`properties['order-id'] = 7731`)).toBe(false);
    expect(holds(`NOT properties['order-id'] = 7731`)).toBe(false);
    expect(holds(`properties['order-id'] IN (7731, '7731')`)).toBe(true);
    expect(holds(`properties.vip = true`)).toBe(true);
    expect(holds(`properties.vip = 'true'`)).toBe(false);
    expect(holds(`body->'customer' = 'cu-1'`)).toBe(false);
    expect(holds(`body->'customer'->>'id' = 'cu-1'`)).toBe(true);
    expect(holds(`node < 'broker-b'`)).toBe(true);
    expect(holds(`priority BETWEEN 4 AND 9`)).toBe(true);
    expect(holds(`durable <> false`)).toBe(true);
  });

  it('compares times as instants, not as text', () => {
    const offset = row({ time: '2026-11-28T08:30:00+01:00' });
    expect(holds(`time = '2026-11-28T07:30:00Z'`, offset)).toBe(true);
    expect(holds(`time < '2026-11-28T07:45:00Z'`, offset)).toBe(true);
    expect(holds(`time BETWEEN now() - interval '1 hour' AND now()`, offset)).toBe(true);
  });

  it('follows three-valued logic: unknown is not matched, and NOT unknown is unknown', () => {
    expect(holds(`properties.missing = 'x'`)).toBe(false);
    expect(holds(`NOT properties.missing = 'x'`)).toBe(false);
    expect(holds(`properties.missing <> 'x'`)).toBe(false);
    expect(holds(`properties.missing = 'x' OR priority = 4`)).toBe(true);
    expect(holds(`NOT (properties.missing = 'x' AND priority = 5)`)).toBe(true);
    expect(holds(`NOT (properties.missing = 'x' AND priority = 4)`)).toBe(false);
    expect(holds(`properties.missing NOT IN ('a')`)).toBe(false);
    expect(holds(`node NOT IN ('x', NULL)`)).toBe(false);
    expect(holds(`node IN ('broker-a', NULL)`)).toBe(true);
    expect(holds(`properties.missing NOT BETWEEN 1 AND 2`)).toBe(false);
    expect(holds(`properties.amount NOT LIKE '1%'`)).toBe(false);
    expect(holds(`expiration > now()`)).toBe(false);
    expect(holds(`NOT expiration > now()`)).toBe(false);
  });

  it('tests IS [NOT] NULL, a null property and JSON null alike', () => {
    expect(holds(`expiration IS NULL AND reply_to IS NULL AND queue IS NOT NULL`)).toBe(true);
    expect(holds(`properties.note IS NULL AND properties.missing IS NULL AND properties.vip IS NOT NULL`)).toBe(true);
    expect(holds(`body->'nothing' IS NULL`, row({ body: { nothing: null } }))).toBe(true);
    expect(holds(`body->'customer' IS NOT NULL`)).toBe(true);
  });

  it('matches LIKE with %, _ and ESCAPE, over whole values and newlines', () => {
    expect(holds(`node LIKE 'broker-%'`)).toBe(true);
    expect(holds(`node LIKE 'broker-_'`)).toBe(true);
    expect(holds(`node LIKE 'broker_'`)).toBe(false);
    expect(holds(`node LIKE 'broker'`)).toBe(false);
    expect(holds(`node LIKE 'BROKER-%'`)).toBe(false);
    expect(holds(`properties.p LIKE '50!%%' ESCAPE '!'`, row({ properties: { p: '50% off' } }))).toBe(true);
    expect(holds(`properties.p LIKE '50!%%' ESCAPE '!'`, row({ properties: { p: '500 off' } }))).toBe(false);
    expect(holds(`properties.p LIKE 'a!_b' ESCAPE '!'`, row({ properties: { p: 'a_b' } }))).toBe(true);
    expect(holds(`properties.p LIKE 'a!_b' ESCAPE '!'`, row({ properties: { p: 'axb' } }))).toBe(false);
    expect(holds(`properties.p LIKE 'a.c(d)'`, row({ properties: { p: 'a.c(d)' } }))).toBe(true);
    expect(holds(`properties.p LIKE 'a.c'`, row({ properties: { p: 'abc' } }))).toBe(false);
    expect(holds(`properties.p LIKE 'a%z'`, row({ properties: { p: 'a\nz' } }))).toBe(true);
    expect(holds(`properties.p LIKE '_'`, row({ properties: { p: '😀' } }))).toBe(true);
    expect(holds(`properties.amount LIKE '120'`)).toBe(false);
  });
});

describe('project', () => {
  it('gives * as every header then properties and body, and named columns by their names', () => {
    const subject = row();
    const star = project('*', subject);
    expect(Object.keys(star)).toEqual([
      'id',
      'address',
      'queue',
      'node',
      'time',
      'priority',
      'durable',
      'expiration',
      'correlation_id',
      'reply_to',
      'properties',
      'body',
    ]);
    const { columns } = parseQuery(`SELECT node, properties['order-id'] AS oid, body->'items'->0->>'sku' FROM q`, NOW);
    expect(project(columns, subject)).toEqual({ node: 'broker-a', oid: '7731', "body->'items'->'0'->'sku'": 'X-1' });
  });
});

describe('compareRows', () => {
  it('sorts by each key in turn, missing values last both ways, times as instants', () => {
    const a = row({ id: 'a', priority: 4, time: '2026-11-28T07:00:00.000Z' });
    const b = row({ id: 'b', priority: 9, time: '2026-11-28T08:30:00+01:00' });
    const c = row({ id: 'c', priority: 4, time: '2026-11-28T07:10:00.000Z' });
    const d = row({ id: 'd', priority: null, time: '2026-11-28T06:00:00.000Z' });
    const ids = (order: string) =>
      [a, b, c, d].sort(compareRows(parseQuery(`SELECT * FROM q ORDER BY ${order}`, NOW).orderBy)).map((r) => r.id);
    expect(ids('priority DESC, time')).toEqual(['b', 'a', 'c', 'd']);
    expect(ids('priority, time DESC')).toEqual(['c', 'a', 'b', 'd']);
    expect(ids('time')).toEqual(['d', 'a', 'c', 'b']);
  });

  it('sorts values of different types by type', () => {
    const rows = [
      row({ id: 'text', properties: { k: 'x' } }),
      row({ id: 'number', properties: { k: 5 } }),
      row({ id: 'bool', properties: { k: false } }),
      row({ id: 'none', properties: {} }),
    ];
    const sorted = rows.sort(compareRows([{ field: { kind: 'property', key: 'k' }, direction: 'asc' }]));
    expect(sorted.map((r) => r.id)).toEqual(['bool', 'number', 'text', 'none']);
  });
});
