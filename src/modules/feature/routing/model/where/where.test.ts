import { describe, expect, it } from 'vitest';
import type { RoutingAddress, RoutingDivert, RoutingNodeView, RoutingQueue } from '../routing-view.ts';
import { address, bridge, connection, divert, queue, view } from '../view-fixtures.ts';
import { whereWouldItGo, type ProbeMessage, type WhereNodeAnswer } from './where.ts';

// The shared builders, with this file's defaults: a multicast queue, an address that auto-creates nothing.
const addressOf = (name: string, more: Partial<RoutingAddress> = {}) =>
  address(name, { autoCreateQueues: false, redistributionDelay: null, ...more });
const queueOf = (name: string, on: string, more: Partial<RoutingQueue> = {}) =>
  queue(name, on, { routingType: 'MULTICAST', ...more });
const divertOf = (name: string, from: string, to: string, more: Partial<RoutingDivert> = {}) =>
  divert(name, from, to, more);

function nodeOf(parts: Partial<RoutingNodeView>, nodeId = 'n1'): RoutingNodeView {
  const queues = parts.queues ?? [];
  const declared = parts.addresses ?? [];
  // Every address a queue or divert names exists unless the test declares it.
  const implied = [...queues.map((q) => q.address), ...(parts.diverts ?? []).map((d) => d.address)]
    .filter((name, index, all) => all.indexOf(name) === index && !declared.some((entry) => entry.name === name))
    .map((name) => addressOf(name));
  return view(nodeId, `broker-${nodeId}`, { ...parts, addresses: [...declared, ...implied] });
}

const probe = (address: string, properties: ProbeMessage['properties'] = {}, extra: Partial<ProbeMessage> = {}) => ({
  address,
  properties,
  headers: {},
  ...extra,
});

function only(views: RoutingNodeView[], message: ProbeMessage): WhereNodeAnswer {
  const [node] = whereWouldItGo(views, message).nodes;
  if (!node) throw new Error('no node');
  return node;
}

const received = (node: WhereNodeAnswer) => node.receivingQueues.map((queue) => queue.name).sort();

describe('queues and their filters', () => {
  const view = nodeOf({
    queues: [
      queueOf('all', 'orders'),
      queueOf('red', 'orders', { filter: "color = 'red'" }),
      queueOf('elsewhere', 'payments'),
    ],
  });

  it('gives every multicast queue of the address whose filter matches a copy', () => {
    const red = only([view], probe('orders', { color: 'red' }));
    expect(received(red)).toEqual(['all', 'red']);
    expect(red.outcome).toBe('routed');
    expect(red.receivingQueues.every((queue) => queue.share === 'every' && queue.certain)).toBe(true);
    expect(red.path).toEqual(
      expect.arrayContaining(['binds:address:orders->queue:all', 'binds:address:orders->queue:red']),
    );
    expect(received(only([view], probe('orders', { color: 'RED' })))).toEqual(['all']);
    expect(received(only([view], probe('orders')))).toEqual(['all']);
  });

  it('gives one of several matching anycast queues each message, and says so', () => {
    const anycast = nodeOf({
      queues: [
        queueOf('a1', 'work', { routingType: 'ANYCAST' }),
        queueOf('a2', 'work', { routingType: 'ANYCAST' }),
        queueOf('a3', 'work', { routingType: 'ANYCAST', filter: 'size > 10' }),
      ],
    });
    const node = only([anycast], probe('work', { size: 1 }));
    expect(received(node)).toEqual(['a1', 'a2']);
    expect(node.receivingQueues.every((queue) => queue.share === 'one-of')).toBe(true);
    expect(new Set(node.receivingQueues.map((queue) => queue.group)).size).toBe(1);
    expect(node.notes.map((note) => note.kind)).toContain('round-robin');
  });

  it('matches the message’s routing type with the queue’s; without one every type fits', () => {
    const mixed = nodeOf({
      queues: [queueOf('any', 'mixed', { routingType: 'ANYCAST' }), queueOf('multi', 'mixed')],
    });
    expect(received(only([mixed], probe('mixed')))).toEqual(['any', 'multi']);
    expect(received(only([mixed], probe('mixed', {}, { routingType: 'ANYCAST' })))).toEqual(['any']);
    const multicast = only([mixed], probe('mixed', {}, { routingType: 'MULTICAST' }));
    expect(received(multicast)).toEqual(['multi']);
    expect(multicast.notes.map((note) => note.kind)).toContain('routing-type');
    expect(whereWouldItGo([mixed], probe('mixed')).notes.map((note) => note.kind)).toEqual(['routing-type']);
  });

  it('reaches queues on a wildcard address that matches', () => {
    const wildcard = nodeOf({ queues: [queueOf('all-news', 'news.#'), queueOf('sport', 'news.*.sport')] });
    expect(received(only([wildcard], probe('news.eu')))).toEqual(['all-news']);
    expect(received(only([wildcard], probe('news.eu.sport')))).toEqual(['all-news', 'sport']);
  });

  it('reaches only the named queue of a fully qualified name', () => {
    expect(received(only([view], probe('orders::red', { color: 'blue' })))).toEqual([]);
    expect(received(only([view], probe('orders::all')))).toEqual(['all']);
  });

  it('judges header fields as the broker does, and says when a filter names an untranslated JMS header', () => {
    const headers = nodeOf({
      queues: [
        queueOf('urgent', 'h', { filter: 'AMQPriority > 6' }),
        queueOf('jms', 'h', { filter: 'JMSPriority > 6' }),
        queueOf('typed', 'h', { filter: "JMSType = 'invoice'" }),
        queueOf('durable', 'h', { filter: "AMQDurable = 'DURABLE'" }),
      ],
    });
    const node = only([headers], probe('h', {}, { headers: { priority: 9, type: 'invoice', durable: true } }));
    expect(received(node)).toEqual(['durable', 'typed', 'urgent']);
    expect(node.notes.find((note) => note.kind === 'jms-header')?.text).toMatch(/JMSPriority.*AMQPriority/);
    // Default priority 4.
    expect(received(only([headers], probe('h', {}, { headers: { type: 'x', durable: false } })))).toEqual([]);
  });

  it('says what it cannot know: the size, the body, an unparsable filter', () => {
    const unknowable = nodeOf({
      queues: [
        queueOf('small', 'u', { filter: 'AMQSize < 1000' }),
        queueOf('xml', 'u', { filter: "XPATH '/order'" }),
        queueOf('broken', 'u', { filter: "color = 'red" }),
      ],
    });
    const node = only([unknowable], probe('u'));
    expect(node.unknowns.map((note) => note.kind).sort()).toEqual(['body', 'invalid-filter', 'unknowable']);
    expect(node.receivingQueues.every((queue) => !queue.certain)).toBe(true);
    expect(received(node)).toEqual(['broken', 'small', 'xml']);
  });
});

describe('diverts', () => {
  const view = nodeOf({
    queues: [
      queueOf('orders-all', 'orders'),
      queueOf('audit-q', 'audit', { routingType: 'ANYCAST' }),
      queueOf('vip-q', 'vip'),
      queueOf('eu-q', 'eu'),
    ],
    diverts: [
      divertOf('to-audit', 'orders', 'audit', { filter: 'amount > 100' }),
      divertOf('vip-only', 'orders', 'vip', { exclusive: true, filter: "tier = 'gold'", routingType: 'PASS' }),
    ],
  });

  it('copies to a non-exclusive divert’s forwarding address when its filter matches, and the queues still get it', () => {
    const node = only([view], probe('orders', { amount: 500 }));
    expect(received(node)).toEqual(['audit-q', 'orders-all']);
    expect(node.diverted.map((divert) => divert.name)).toEqual(['to-audit']);
    expect(node.receivingQueues.find((queue) => queue.name === 'audit-q')?.via).toBe('divert');
    expect(node.path).toEqual(
      expect.arrayContaining([
        'diverts:address:orders->divert:to-audit',
        'forwards:divert:to-audit->address:audit',
        'binds:address:audit->queue:audit-q',
      ]),
    );
    const small = only([view], probe('orders', { amount: 5 }));
    expect(received(small)).toEqual(['orders-all']);
    expect(small.diverted).toEqual([]);
  });

  it('lets a matching exclusive divert take the message from the address’s queues and other diverts', () => {
    const node = only([view], probe('orders', { tier: 'gold', amount: 500 }));
    expect(received(node)).toEqual(['vip-q']);
    expect(node.notes.map((note) => note.kind)).toContain('exclusive-divert');
    expect(node.outcome).toBe('routed');
    expect(received(only([view], probe('orders', { tier: 'silver' })))).toEqual(['orders-all']);
  });

  it('applies the divert’s routing type to the copy', () => {
    const typed = nodeOf({
      queues: [queueOf('any', 'out', { routingType: 'ANYCAST' }), queueOf('multi', 'out')],
      diverts: [divertOf('as-multicast', 'in', 'out', { routingType: 'MULTICAST' })],
      addresses: [addressOf('in', { autoCreateQueues: true })],
    });
    expect(received(only([typed], probe('in', {}, { routingType: 'ANYCAST' })))).toEqual(['multi']);
    const pass = nodeOf({
      queues: [...typed.queues],
      diverts: [divertOf('pass', 'in', 'out', { routingType: 'PASS' })],
      addresses: [addressOf('in', { autoCreateQueues: true })],
    });
    expect(received(only([pass], probe('in', {}, { routingType: 'ANYCAST' })))).toEqual(['any']);
    const strip = nodeOf({
      queues: [...typed.queues],
      diverts: [divertOf('strip', 'in', 'out', { routingType: 'STRIP' })],
      addresses: [addressOf('in', { autoCreateQueues: true })],
    });
    expect(received(only([strip], probe('in', {}, { routingType: 'ANYCAST' })))).toEqual(['any', 'multi']);
  });

  it('follows diverts of diverts and stops at a loop', () => {
    const loop = nodeOf({
      queues: [queueOf('b-q', 'b')],
      diverts: [divertOf('a-to-b', 'a', 'b'), divertOf('b-to-a', 'b', 'a')],
    });
    const node = only([loop], probe('a'));
    expect(received(node)).toEqual(['b-q']);
    expect(node.notes.map((note) => note.kind)).toContain('loop');
  });

  it('says a transformer makes everything after it uncertain', () => {
    const transformed = nodeOf({
      queues: [queueOf('t-q', 'out', { filter: "color = 'red'" })],
      diverts: [divertOf('t', 'in', 'out', { transformerClassName: 'com.example.Recolour' })],
      addresses: [addressOf('in', { autoCreateQueues: true })],
    });
    const node = only([transformed], probe('in', { color: 'red' }));
    expect(received(node)).toEqual(['t-q']);
    expect(node.receivingQueues[0]?.certain).toBe(false);
    expect(node.unknowns.map((note) => note.kind)).toContain('transformer');
    // Not matching before the transformer: may still match after it.
    expect(received(only([transformed], probe('in', { color: 'blue' })))).toEqual(['t-q']);
  });
});

describe('no queue takes it', () => {
  it('drops it, or sends it to the dead-letter address when send-to-dla-on-no-route is on and nothing is bound', () => {
    const queues = [queueOf('picky', 'orders', { filter: "color = 'red'" }), queueOf('dlq', 'DLA')];
    const dropped = only([nodeOf({ queues })], probe('orders'));
    expect(dropped.outcome).toBe('dropped');
    expect(received(dropped)).toEqual([]);
    const dla = addressOf('orders', { sendToDlaOnNoRoute: true, deadLetterAddress: 'DLA' });
    const dead = only([nodeOf({ queues: [queueOf('dlq', 'DLA')], addresses: [dla] })], probe('orders'));
    expect(dead.outcome).toBe('dead-lettered');
    expect(dead.receivingQueues).toMatchObject([{ name: 'dlq', via: 'dead-letter' }]);
    expect(dead.path).toContain('dead-letter:address:orders->address:DLA');
  });

  it('drops what bound queues all decline even under send-to-dla-on-no-route (Artemis 2.44), and says later brokers differ', () => {
    const dla = addressOf('orders', { sendToDlaOnNoRoute: true, deadLetterAddress: 'DLA' });
    const queues = [queueOf('picky', 'orders', { filter: "color = 'red'" }), queueOf('dlq', 'DLA')];
    const declined = only([nodeOf({ queues, addresses: [dla] })], probe('orders'));
    expect(declined.outcome).toBe('dropped');
    expect(declined.unknowns).toMatchObject([{ kind: 'dead-letter', itemId: 'address:orders' }]);
    expect(declined.unknowns[0]?.text).toMatch(/ARTEMIS-4911/);
  });

  it('does not dead-letter an exclusively diverted original (Artemis 2.44), and says later brokers do', () => {
    const view = nodeOf({
      addresses: [addressOf('orders', { sendToDlaOnNoRoute: true, deadLetterAddress: 'DLA' })],
      queues: [queueOf('dlq', 'DLA'), queueOf('vip-q', 'vip')],
      diverts: [divertOf('all-vip', 'orders', 'vip', { exclusive: true })],
    });
    const node = only([view], probe('orders'));
    expect(received(node)).toEqual(['vip-q']);
    expect(node.unknowns.map((note) => note.kind)).toContain('dead-letter');
  });

  it('auto-creates an anycast queue, or refuses the send, when the address has none', () => {
    const creating = nodeOf({ addresses: [addressOf('fresh', { autoCreateQueues: true })] });
    const created = only([creating], probe('fresh', {}, { routingType: 'ANYCAST' }));
    expect(created.outcome).toBe('auto-created');
    expect(created.unknowns.map((note) => note.kind)).toContain('auto-create');
    const refusing = nodeOf({ addresses: [addressOf('fresh', { autoCreateQueues: false })] });
    expect(only([refusing], probe('fresh', {}, { routingType: 'ANYCAST' })).outcome).toBe('refused');
    expect(only([refusing], probe('fresh', {}, { routingType: 'MULTICAST' })).outcome).toBe('dropped');
    // A divert is no queue: an ANYCAST send to an address with only diverts is refused as well.
    const divertOnly = nodeOf({
      addresses: [addressOf('in', { autoCreateQueues: false })],
      queues: [queueOf('out-q', 'out')],
      diverts: [divertOf('in-to-out', 'in', 'out')],
    });
    expect(only([divertOnly], probe('in', {}, { routingType: 'ANYCAST' })).outcome).toBe('refused');
    expect(received(only([divertOnly], probe('in', {}, { routingType: 'MULTICAST' })))).toEqual(['out-q']);
  });

  it('says an address that does not exist may be created or refused', () => {
    const node = only([nodeOf({})], probe('nowhere', {}, { routingType: 'ANYCAST' }));
    expect(node.outcome).toBe('address-missing');
    expect(node.unknowns[0]?.text).toMatch(/auto-create-addresses/);
  });
});

describe('beyond the node', () => {
  it('names a bridge consuming a receiving queue as forwarding beyond what Flotilla sees', () => {
    const view = nodeOf({
      queues: [queueOf('outbound', 'orders')],
      bridges: [bridge('to-dc2', 'outbound', 'orders-dc2')],
    });
    const node = only([view], probe('orders'));
    expect(node.unknowns).toMatchObject([{ kind: 'bridge', itemId: 'bridge:to-dc2' }]);
    expect(node.unknowns[0]?.text).toMatch(/beyond what Flotilla can see/);
    expect(node.path).toContain('bridges:queue:outbound->bridge:to-dc2');
  });

  it('says a balancing cluster connection may route to another node, and where nodes disagree', () => {
    const balancing = connection('cluster', '');
    const queues = [queueOf('orders-all', 'orders'), queueOf('audit-q', 'audit')];
    const one = nodeOf(
      { queues, diverts: [divertOf('to-audit', 'orders', 'audit')], clusterConnections: [balancing] },
      'n1',
    );
    const two = nodeOf({ queues, clusterConnections: [balancing] }, 'n2');
    const answer = whereWouldItGo([one, two], probe('orders'));
    expect(answer.nodes.map(received)).toEqual([['audit-q', 'orders-all'], ['orders-all']]);
    expect(answer.agree).toBe(false);
    expect(answer.differences).toEqual([
      { text: 'audit-q receives it on broker-n1, not on broker-n2.', nodeIds: ['n2'] },
    ]);
    expect(answer.nodes[0]?.unknowns.map((note) => note.kind)).toContain('cluster');
    expect(answer.highlighted).toContain('divert:to-audit');
    const same = whereWouldItGo([two, { ...two, nodeId: 'n3', nodeName: 'broker-n3' }], probe('orders'));
    expect(same).toMatchObject({ agree: true, differences: [] });
  });
});
