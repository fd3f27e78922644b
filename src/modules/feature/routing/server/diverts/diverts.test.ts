// The diverts list merged across nodes (presence, differences, search, sort, pages) and what is refused before a
// divert write reaches the command sequence.
import { describe, expect, it } from 'vitest';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import type { RoutingDivert, RoutingNodeView } from '../../model/routing-view.ts';
import * as fixtures from '../../model/view-fixtures.ts';
import { divertToRemove, refuseCreate } from './divert-checks.ts';
import { refuseBadFilter } from './divert-filter.ts';
import { divertRows, pageDivertRows } from './divert-rows.ts';

// The shared builders (model/view-fixtures.ts) with this file's defaults: diverts on orders to orders.copy, a node
// id derived from its name, queues on addresses of their own name.
const divert = (name: string, more: Partial<RoutingDivert> = {}): RoutingDivert =>
  fixtures.divert(name, 'orders', 'orders.copy', more);

const view = (nodeName: string, diverts: RoutingDivert[], queues: string[] = []): RoutingNodeView =>
  fixtures.view(`id-${nodeName}`, nodeName, { diverts, queues: queues.map((name) => fixtures.queue(name, name)) });

const problemOf = (action: () => void) => {
  try {
    action();
  } catch (error) {
    if (error instanceof ProblemError) return error.problem;
    throw error;
  }
  return undefined;
};

describe('the diverts list', () => {
  const views = [
    view('node-b', [divert('copy', { filter: "region = 'EU'" }), divert('audit')]),
    view('node-a', [divert('copy'), divert('only-a', { exclusive: true })]),
  ];

  it('merges by name with the nodes that have it, those that lack it and the fields that differ', () => {
    const rows = divertRows(views);
    const copy = rows.find((row) => row.name === 'copy');
    expect(copy?.presentOn.map((node) => node.nodeName)).toEqual(['node-a', 'node-b']);
    expect(copy?.missingOn).toEqual([]);
    expect(copy?.differs).toEqual(['filter']);
    // The facts are those of the first node by name.
    expect(copy?.filter).toBeNull();
    const onlyA = rows.find((row) => row.name === 'only-a');
    expect(onlyA?.missingOn).toEqual([{ nodeId: 'id-node-b', nodeName: 'node-b' }]);
    expect(onlyA?.exclusive).toBe(true);
  });

  it('searches name, addresses and filter, sorts (presence: lacking first) and pages', () => {
    const rows = divertRows(views);
    expect(pageDivertRows(rows, { q: 'eu', sort: 'name', page: 1, pageSize: 10 }).items).toEqual([]);
    expect(pageDivertRows(rows, { q: 'ONLY', sort: 'name', page: 1, pageSize: 10 }).total).toBe(1);
    const byPresence = pageDivertRows(rows, { sort: 'presence', page: 1, pageSize: 10 });
    expect(byPresence.items.map((row) => row.name)).toEqual(['audit', 'only-a', 'copy']);
    const second = pageDivertRows(rows, { sort: '-name', page: 2, pageSize: 2 });
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((row) => row.name)).toEqual(['audit']);
  });
});

describe('before a divert write', () => {
  const asked = {
    name: 'copy',
    address: 'orders',
    forwardingAddress: 'orders.copy',
    exclusive: false,
    filter: null,
    routingType: 'STRIP' as const,
  };

  it('refuses a divert on every node, or one defined otherwise anywhere, with 409', () => {
    expect(
      problemOf(() => refuseCreate([view('a', [divert('copy')]), view('b', [divert('copy')])], asked)),
    ).toMatchObject({ type: 'divert-exists', status: 409 });
    const other = [view('a', [divert('copy', { forwardingAddress: 'elsewhere' })]), view('b', [])];
    expect(problemOf(() => refuseCreate(other, asked))).toMatchObject({ type: 'divert-exists', status: 409 });
    // On one node as asked, missing on the other: created where it lacks.
    expect(problemOf(() => refuseCreate([view('a', [divert('copy')]), view('b', [])], asked))).toBeUndefined();
  });

  it('refuses a name a queue holds (409) and a divert to its own address (400)', () => {
    expect(problemOf(() => refuseCreate([view('a', [], ['copy'])], asked))).toMatchObject({
      type: 'divert-name-taken',
      status: 409,
    });
    expect(problemOf(() => refuseCreate([view('a', [])], { ...asked, forwardingAddress: 'orders' }))).toMatchObject({
      type: 'validation-failed',
      status: 400,
    });
  });

  it('refuses removing a divert no node has (404), unless a node could not be read', () => {
    expect(problemOf(() => divertToRemove([view('a', [])], 'copy', true))).toMatchObject({
      type: 'divert-not-found',
      status: 404,
    });
    expect(divertToRemove([view('a', [])], 'copy', false)).toBeUndefined();
    expect(divertToRemove([view('a', []), view('b', [divert('copy')])], 'copy', true)?.forwardingAddress).toBe(
      'orders.copy',
    );
  });

  it('refuses a filter that is no selector', () => {
    for (const filter of ["region = 'EU", '(a = 1', 'a = 1)', 'region =', 'region EU'])
      expect(
        problemOf(() => refuseBadFilter(filter)),
        filter,
      ).toMatchObject({ type: 'validation-failed' });
    for (const filter of [null, '', "region = 'it''s' AND (a > 1)"])
      expect(
        problemOf(() => refuseBadFilter(filter)),
        String(filter),
      ).toBeUndefined();
  });
});
