import { describe, expect, it } from 'vitest';
import { buildRoutingGraph, filterRoutingGraph, matchesAddress } from './build-graph.ts';
import { coveredByClusterConnection } from './address-pattern.ts';
import type { RoutingGraph } from './routing-graph.ts';
import { address, bridge, connection, divert, queue, view } from './view-fixtures.ts';

const item = (graph: RoutingGraph, id: string) => graph.items.find((one) => one.id === id);
const edge = (graph: RoutingGraph, id: string) => graph.edges.find((one) => one.id === id);
const ids = (graph: RoutingGraph) => graph.items.map((one) => one.id);

/** Two nodes; node b (named first) lacks the divert, and its copy of the filtered queue has another filter. */
function twoNodes(): RoutingGraph {
  const shared = {
    addresses: [address('orders', { deadLetterAddress: 'DLA', expiryAddress: 'ExpiryQueue' }), address('DLA')],
    clusterConnections: [connection('my-cluster', '')],
  };
  return buildRoutingGraph([
    view('n2', 'broker-2', {
      ...shared,
      addresses: [...shared.addresses, address('copies')],
      queues: [
        queue('orders', 'orders', { messageCount: 3, consumerCount: 1 }),
        queue('orders.big', 'orders', { filter: 'size > 10' }),
        queue('copies', 'copies'),
      ],
      diverts: [divert('copy', 'orders', 'copies')],
      bridges: [bridge('out', 'orders', 'remote.orders')],
    }),
    view('n1', 'broker-1', {
      ...shared,
      queues: [queue('orders', 'orders', { messageCount: 2 }), queue('orders.big', 'orders', { filter: 'size > 99' })],
    }),
  ]);
}

describe('buildRoutingGraph', () => {
  it('merges the nodes: one item per name, with the nodes holding it, ordered by node name', () => {
    const graph = twoNodes();
    expect(graph.nodes.map((node) => node.nodeName)).toEqual(['broker-1', 'broker-2']);
    expect(ids(graph).filter((id) => id.startsWith('queue:'))).toEqual([
      'queue:copies',
      'queue:orders',
      'queue:orders.big',
    ]);
    expect(item(graph, 'address:orders')).toMatchObject({ presentOn: ['n1', 'n2'], missingOn: [], differs: [] });
    expect(item(graph, 'cluster-connection:my-cluster')?.presentOn).toEqual(['n1', 'n2']);
  });

  it('marks an item and its edges missing on the node that lacks them', () => {
    const graph = twoNodes();
    expect(item(graph, 'divert:copy')).toMatchObject({ presentOn: ['n2'], missingOn: ['n1'] });
    expect(edge(graph, 'diverts:address:orders->divert:copy')).toMatchObject({ presentOn: ['n2'], missingOn: ['n1'] });
    expect(item(graph, 'queue:copies')?.missingOn).toEqual(['n1']);
  });

  it('names the facts that differ, takes facts from the first node by name and sums the counts', () => {
    const graph = twoNodes();
    const big = item(graph, 'queue:orders.big');
    expect(big?.differs).toEqual(['filter']);
    expect(big?.facts.filter).toBe('size > 99');
    const orders = item(graph, 'queue:orders');
    expect(orders?.differs).toEqual([]);
    expect(orders?.facts).toMatchObject({
      messageCount: 5,
      consumerCount: 1,
      address: 'orders',
      routingType: 'ANYCAST',
    });
  });

  it('draws every edge kind', () => {
    const graph = twoNodes();
    const expected = [
      'binds:address:orders->queue:orders',
      'binds:address:orders->queue:orders.big',
      'diverts:address:orders->divert:copy',
      'forwards:divert:copy->address:copies',
      'bridges:queue:orders->bridge:out',
      'forwards:bridge:out->address:remote.orders',
      'dead-letter:address:orders->address:DLA',
      'expiry:address:orders->address:ExpiryQueue',
      'balances:cluster-connection:my-cluster->address:orders',
    ];
    for (const id of expected) expect(edge(graph, id), id).toBeDefined();
    expect(new Set(graph.edges.map((one) => one.kind))).toEqual(
      new Set(['binds', 'diverts', 'forwards', 'bridges', 'dead-letter', 'expiry', 'balances']),
    );
  });

  it('does not mark missing what lives on one node by nature: temporary, internal and non-durable multicast queues', () => {
    const graph = buildRoutingGraph([
      view('n1', 'node-1', {
        addresses: [address('orders'), address('$.artemis.internal.sf.c.n2', { internal: true })],
        queues: [
          queue('reply-1', 'orders', { temporary: true }),
          queue('sub-1', 'orders', { routingType: 'MULTICAST', durable: false }),
          queue('$.artemis.internal.sf.c.n2', '$.artemis.internal.sf.c.n2', { internal: true }),
          queue('durable-sub', 'orders', { routingType: 'MULTICAST' }),
        ],
      }),
      view('n2', 'node-2', { addresses: [address('orders')] }),
    ]);
    for (const id of [
      'queue:reply-1',
      'queue:sub-1',
      'queue:$.artemis.internal.sf.c.n2',
      'address:$.artemis.internal.sf.c.n2',
    ])
      expect(item(graph, id), id).toMatchObject({ presentOn: ['n1'], missingOn: [] });
    expect(edge(graph, 'binds:address:orders->queue:sub-1')?.missingOn).toEqual([]);
    // A durable subscription is configuration: absent on a node, it is a defect.
    expect(item(graph, 'queue:durable-sub')?.missingOn).toEqual(['n2']);
  });

  it('keeps an edge to an address no node has, as an item missing everywhere', () => {
    const graph = twoNodes();
    expect(item(graph, 'address:ExpiryQueue')).toMatchObject({ presentOn: [], missingOn: ['n1', 'n2'], facts: {} });
    expect(item(graph, 'address:remote.orders')?.kind).toBe('address');
  });

  it('a bridge without a forwarding address sends to its queue’s address; no self-loop for a DLA of itself', () => {
    const graph = buildRoutingGraph([
      view('n1', 'a', {
        addresses: [address('in', { deadLetterAddress: 'in' })],
        queues: [queue('in.q', 'in')],
        bridges: [bridge('b', 'in.q', null)],
      }),
    ]);
    expect(edge(graph, 'forwards:bridge:b->address:in')).toBeDefined();
    expect(graph.edges.some((one) => one.kind === 'dead-letter')).toBe(false);
  });

  it('balances only the addresses a cluster connection covers, never internal ones', () => {
    const graph = buildRoutingGraph([
      view('n1', 'a', {
        addresses: [
          address('eu.orders'),
          address('eu.uk.orders'),
          address('us.orders'),
          address('$sys', { internal: true }),
        ],
        clusterConnections: [connection('eu', 'eu,!eu.uk'), connection('all', '')],
      }),
    ]);
    const balanced = (name: string) =>
      graph.edges.filter((one) => one.from === `cluster-connection:${name}`).map((one) => one.to);
    expect(balanced('eu')).toEqual(['address:eu.orders']);
    expect(balanced('all')).toEqual(['address:eu.orders', 'address:eu.uk.orders', 'address:us.orders']);
  });
});

describe('matchesAddress', () => {
  it.each([
    ['orders', 'orders', true],
    ['orders', 'orders.eu', false],
    ['orders.*', 'orders.eu', true],
    ['orders.*', 'orders', false],
    ['orders.*', 'orders.eu.north', false],
    ['orders.#', 'orders', true],
    ['orders.#', 'orders.eu.north', true],
    ['#', 'anything.at.all', true],
    ['*.eu.#', 'orders.eu', true],
    ['*.eu.#', 'eu', false],
    ['#.north', 'orders.eu.north', true],
    ['#.#.north', 'north', true],
    ['orders*', 'orders.eu', false],
    ['orders', 'orders2', false],
  ])('%s against %s → %s', (pattern, candidate, expected) => {
    expect(matchesAddress(pattern, candidate)).toBe(expected);
  });
});

describe('coveredByClusterConnection', () => {
  it.each([
    ['', 'x', true],
    ['jms', 'jms.queue', true],
    ['jms', 'other', false],
    ['!jms.topic', 'jms.queue', true],
    ['!jms.topic', 'jms.topic.a', false],
    ['jms, !jms.topic', 'jms.topic.a', false],
    ['a,b', 'b.x', true],
  ])('%j covers %s → %s', (spec, candidate, expected) => {
    expect(coveredByClusterConnection(spec, candidate)).toBe(expected);
  });
});

describe('filterRoutingGraph', () => {
  it('keeps the matched addresses with their queues, diverts and bridges, and one hop either side', () => {
    const filtered = filterRoutingGraph(twoNodes(), 'orders');
    expect(ids(filtered)).toEqual([
      'address:DLA',
      'address:ExpiryQueue',
      'address:copies',
      'address:orders',
      'address:remote.orders',
      'bridge:out',
      'cluster-connection:my-cluster',
      'divert:copy',
      'queue:copies',
      'queue:orders',
      'queue:orders.big',
    ]);
    expect(filtered.edges.every((one) => ids(filtered).includes(one.from) && ids(filtered).includes(one.to))).toBe(
      true,
    );
  });

  it('keeps what sends into a matched address, with its source, and leaves the rest out', () => {
    const filtered = filterRoutingGraph(twoNodes(), 'copies');
    expect(ids(filtered)).toEqual([
      'address:copies',
      'address:orders',
      'cluster-connection:my-cluster',
      'divert:copy',
      'queue:copies',
    ]);
    expect(filtered.edges.map((one) => one.id)).toContain('diverts:address:orders->divert:copy');
    expect(filtered.edges.map((one) => one.id)).not.toContain('binds:address:orders->queue:orders');
  });

  it('a wildcard pattern selects every matching address; one matching nothing leaves nothing', () => {
    expect(ids(filterRoutingGraph(twoNodes(), '#'))).toEqual(ids(twoNodes()));
    expect(filterRoutingGraph(twoNodes(), 'nothing.here').items).toEqual([]);
  });
});
