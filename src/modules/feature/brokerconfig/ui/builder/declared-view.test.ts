import { describe, expect, it } from 'vitest';
import { buildRoutingGraph } from '@/modules/feature/routing/ui.ts';
import { configDocument } from '../../server/model/document.ts';
import { DECLARED_NODE, declaredView } from './declared-view.ts';

const document = configDocument.parse({
  addressSettings: [
    { match: '#', settings: { deadLetterAddress: 'DLA', expiryAddress: 'ExpiryQueue', redistributionDelay: 0 } },
    { match: 'orders.#', settings: { deadLetterAddress: 'orders.dla', sendToDLAOnNoRoute: true } },
    { match: 'orders.eu', settings: { autoCreateQueues: false } },
  ],
  queues: [
    { name: 'orders.eu.q', address: 'orders.eu' },
    { name: 'orders.eu.audit', address: 'orders.eu', routingType: 'MULTICAST', filter: "kind='audit'" },
  ],
  diverts: [{ name: 'eu', address: 'orders', forwardingAddress: 'orders.eu', filter: "region='eu'", exclusive: true }],
  bridges: [{ name: 'to-dr', queueName: 'orders.eu.q', forwardingAddress: 'dr.orders', staticConnectors: ['dr'] }],
});

describe('the declared document as a routing node', () => {
  const view = declaredView(document);
  const address = (name: string) => view.addresses.find((entry) => entry.name === name);

  it('is one node, "Declared", without cluster connections', () => {
    expect(view).toMatchObject({ ...DECLARED_NODE, clusterConnections: [] });
  });

  it('implies the addresses queues and diverts name, and the dead-letter and expiry addresses they lead to', () => {
    // ExpiryQueue's own dead-letter address (from "#") is implied in turn.
    expect(view.addresses.map((entry) => entry.name)).toEqual([
      'DLA',
      'ExpiryQueue',
      'orders',
      'orders.dla',
      'orders.eu',
    ]);
    // A bridge forwards to a remote broker: its forwarding address is not one of this cluster's.
    expect(address('dr.orders')).toBeUndefined();
    expect(address('orders.eu')?.routingTypes).toEqual(['ANYCAST', 'MULTICAST']);
    expect(address('orders')?.routingTypes).toEqual([]);
  });

  it('takes each routing fact from the most specific declared match that sets it, field by field', () => {
    expect(address('orders.eu')).toEqual({
      name: 'orders.eu',
      routingTypes: ['ANYCAST', 'MULTICAST'],
      deadLetterAddress: 'orders.dla',
      expiryAddress: 'ExpiryQueue',
      sendToDlaOnNoRoute: true,
      redistributionDelay: 0,
      autoCreateQueues: false,
      internal: false,
    });
    expect(address('DLA')).toMatchObject({ deadLetterAddress: 'DLA', sendToDlaOnNoRoute: false });
  });

  it('says "not known" where nothing is declared', () => {
    const bare = declaredView(configDocument.parse({ queues: [{ name: 'q', address: 'a' }] }));
    expect(bare.addresses).toEqual([
      {
        name: 'a',
        routingTypes: ['ANYCAST'],
        deadLetterAddress: null,
        expiryAddress: null,
        sendToDlaOnNoRoute: false,
        redistributionDelay: null,
        autoCreateQueues: null,
        internal: false,
      },
    ]);
    expect(bare.queues[0]).toMatchObject({ messageCount: null, consumerCount: null, filter: null, temporary: false });
  });

  it('carries queues, diverts and bridges as declared (a bridge’s state unknown)', () => {
    expect(view.queues.find((queue) => queue.name === 'orders.eu.audit')).toMatchObject({
      address: 'orders.eu',
      routingType: 'MULTICAST',
      filter: "kind='audit'",
      durable: true,
    });
    expect(view.diverts).toEqual([
      {
        name: 'eu',
        address: 'orders',
        forwardingAddress: 'orders.eu',
        exclusive: true,
        filter: "region='eu'",
        routingType: 'STRIP',
        transformerClassName: null,
      },
    ]);
    expect(view.bridges).toEqual([
      {
        name: 'to-dr',
        queueName: 'orders.eu.q',
        forwardingAddress: 'dr.orders',
        filter: null,
        transformerClassName: null,
        staticConnectors: ['dr'],
        discoveryGroupName: null,
        started: null,
      },
    ]);
  });
});

describe('the declared graph', () => {
  it('draws the declared items once each, with the edges a message travels and none marked missing', () => {
    const graph = buildRoutingGraph([declaredView(document)]);
    const ids = graph.items.map((item) => item.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'queue:orders.eu.q',
        'queue:orders.eu.audit',
        'divert:eu',
        'bridge:to-dr',
        'address:orders',
        'address:orders.eu',
      ]),
    );
    expect(graph.nodes).toEqual([DECLARED_NODE]);
    const edges = graph.edges.map((edge) => edge.id);
    expect(edges).toEqual(
      expect.arrayContaining([
        'diverts:address:orders->divert:eu',
        'forwards:divert:eu->address:orders.eu',
        'binds:address:orders.eu->queue:orders.eu.q',
        'bridges:queue:orders.eu.q->bridge:to-dr',
        'dead-letter:address:orders.eu->address:orders.dla',
      ]),
    );
    // Every declared item is on the one "node"; only the bridge's remote target is no address of this document.
    expect(graph.items.filter((item) => item.missingOn.length > 0).map((item) => item.id)).toEqual([
      'address:dr.orders',
    ]);
  });
});
