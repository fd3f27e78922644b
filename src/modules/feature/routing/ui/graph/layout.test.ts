import { describe, expect, it } from 'vitest';
import {
  edgeId,
  itemId,
  type RoutingEdge,
  type RoutingEdgeKind,
  type RoutingGraph,
  type RoutingItem,
} from '../../model/routing-graph.ts';
import { boundsOf, layOutRoutingGraph, NODE_SIZE, type Box } from './layout.ts';

const item = (kind: RoutingItem['kind'], name: string): RoutingItem => ({
  id: itemId(kind, name),
  kind,
  name,
  facts: {},
  presentOn: ['n1'],
  missingOn: [],
  differs: [],
});
const edge = (kind: RoutingEdgeKind, from: string, to: string): RoutingEdge => ({
  id: edgeId(kind, from, to),
  kind,
  from,
  to,
  presentOn: ['n1'],
  missingOn: [],
});

/** The benchmark's shape: addresses with two or three queues each, a divert for every tenth address, DLA on all. */
function fleetSized(addresses: number, queues: number, diverts: number): RoutingGraph {
  const items: RoutingItem[] = [item('address', 'DLQ'), item('queue', 'DLQ')];
  const edges: RoutingEdge[] = [edge('binds', 'address:DLQ', 'queue:DLQ')];
  for (let a = 0; a < addresses; a++) {
    const address = `orders.${String(a).padStart(4, '0')}`;
    items.push(item('address', address));
    edges.push(edge('dead-letter', itemId('address', address), 'address:DLQ'));
  }
  for (let q = 0; q < queues; q++) {
    const address = `orders.${String(q % addresses).padStart(4, '0')}`;
    items.push(item('queue', `${address}.q${String(q)}`));
    edges.push(edge('binds', itemId('address', address), itemId('queue', `${address}.q${String(q)}`)));
  }
  for (let d = 0; d < diverts; d++) {
    const from = `orders.${String((d * 10) % addresses).padStart(4, '0')}`;
    const to = `orders.${String((d * 10 + 1) % addresses).padStart(4, '0')}`;
    items.push(item('divert', `audit-${String(d)}`));
    edges.push(edge('diverts', itemId('address', from), itemId('divert', `audit-${String(d)}`)));
    edges.push(edge('forwards', itemId('divert', `audit-${String(d)}`), itemId('address', to)));
  }
  return { nodes: [{ nodeId: 'n1', nodeName: 'node-1' }], items, edges };
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('layOutRoutingGraph', () => {
  it('lays a divert between its address and the forwarding address, and a queue right of its address', () => {
    const graph: RoutingGraph = {
      nodes: [],
      items: [item('address', 'orders'), item('divert', 'audit'), item('address', 'audit'), item('queue', 'orders')],
      edges: [
        edge('diverts', 'address:orders', 'divert:audit'),
        edge('forwards', 'divert:audit', 'address:audit'),
        edge('binds', 'address:orders', 'queue:orders'),
      ],
    };
    const layout = layOutRoutingGraph(graph);
    const box = (id: string) => layout.boxes.get(id) ?? { x: NaN, y: NaN };
    expect(layout.components).toBe(1);
    expect(box('divert:audit').x).toBeGreaterThan(box('address:orders').x);
    expect(box('address:audit').x).toBeGreaterThan(box('divert:audit').x);
    expect(box('queue:orders').x).toBeGreaterThan(box('address:orders').x);
    expect(box('queue:orders')).toMatchObject(NODE_SIZE.queue);
  });

  it('keeps dead-letter edges out of the layout: each address with its queues is a component of its own', () => {
    const layout = layOutRoutingGraph(fleetSized(20, 50, 0));
    expect(layout.components).toBe(21);
    expect(layout.boxes.size).toBe(72);
    expect(layout.firstView.length).toBeGreaterThan(0);
  });

  it('places no two items on top of each other, and the same graph the same way', () => {
    const graph = fleetSized(60, 150, 6);
    const layout = layOutRoutingGraph(graph);
    const boxes = [...layout.boxes.values()];
    const overlapping = boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => overlaps(a, b)));
    expect(overlapping).toEqual([]);
    for (const box of boxes) {
      expect(box.x + box.width).toBeLessThanOrEqual(layout.width + 0.001);
      expect(box.y + box.height).toBeLessThanOrEqual(layout.height + 0.001);
    }
    expect([...layOutRoutingGraph(graph).boxes]).toEqual([...layout.boxes]);
  });

  it('lays out 2,000 addresses, 5,000 queues and 200 diverts well inside the screen’s 2 s budget', () => {
    const graph = fleetSized(2000, 5000, 200);
    const started = performance.now();
    const layout = layOutRoutingGraph(graph);
    const took = performance.now() - started;
    console.info(
      `layout of ${String(graph.items.length)} items: ${took.toFixed(0)} ms, ${String(layout.components)} components`,
    );
    expect(layout.boxes.size).toBe(graph.items.length);
    expect(took).toBeLessThan(1500);
  });

  it('lays out an empty graph', () => {
    expect(layOutRoutingGraph({ nodes: [], items: [], edges: [] })).toMatchObject({
      width: 0,
      height: 0,
      components: 0,
    });
  });
});

describe('boundsOf', () => {
  it('is the box around the given items, or around all of them', () => {
    const layout = layOutRoutingGraph(fleetSized(20, 50, 2));
    const all = boundsOf(layout);
    expect(all).toMatchObject({ x: 0, y: 0, width: layout.width, height: layout.height });
    const first = boundsOf(layout, layout.firstView.slice(0, 1));
    expect(first.width).toBeGreaterThan(0);
    expect(first.width).toBeLessThan(all.width);
    expect(boundsOf(layout, [])).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });
});
