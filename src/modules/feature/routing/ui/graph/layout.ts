// Where each item of a routing graph sits: every connected component laid out by dagre, left to right (address →
// divert → address, address → queue, queue → bridge), then the components packed in rows, largest first. The
// dead-letter, expiry and load-balancing edges stay out of the layout: nearly every address has the same dead-letter
// address, so they would join the whole graph into one component that dagre lays out slowly and unreadably.
// Pure: no React, no DOM; the graph view and the benchmark call it, a unit test checks it.
import dagre from '@dagrejs/dagre';
import type { RoutingEdgeKind, RoutingGraph, RoutingItem, RoutingItemKind } from '../../model/routing-graph.ts';

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface RoutingLayout {
  /** Item id → its box (top-left corner and size), in graph coordinates. */
  readonly boxes: ReadonlyMap<string, Box>;
  readonly width: number;
  readonly height: number;
  readonly components: number;
  /** The items in the top-left FIRST_VIEW area (at least the first component): what a large graph opens on. */
  readonly firstView: readonly string[];
}

/** Each kind's box; fixed, so the layout needs no measuring and the node components fill exactly this. */
export const NODE_SIZE: Readonly<Record<RoutingItemKind, { width: number; height: number }>> = {
  address: { width: 230, height: 58 },
  queue: { width: 230, height: 66 },
  divert: { width: 210, height: 58 },
  bridge: { width: 210, height: 58 },
  'cluster-connection': { width: 230, height: 58 },
};

/** The edges that shape the layout; the others are drawn over it. */
export const LAYOUT_EDGE_KINDS: ReadonlySet<RoutingEdgeKind> = new Set(['binds', 'diverts', 'forwards', 'bridges']);

const COMPONENT_GAP = 48;
const NODE_SEP = 14;
const RANK_SEP = 56;
/** About a screen at zoom 0.8: few enough nodes that the first render is quick. */
const FIRST_VIEW = { width: 1800, height: 1000 };

/** The connected components of the items under the links, each in the items' order; union-find with path halving. */
function componentsOf(items: readonly RoutingItem[], links: readonly Link[]): RoutingItem[][] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let at = id;
    for (let up = parent.get(at); up !== undefined && up !== at; up = parent.get(at)) {
      const next = parent.get(up) ?? up;
      parent.set(at, next);
      at = next;
    }
    return at;
  };
  for (const item of items) parent.set(item.id, item.id);
  for (const [from, to] of links) {
    const a = find(from);
    const b = find(to);
    if (a !== b) parent.set(b, a);
  }
  const groups = new Map<string, RoutingItem[]>();
  for (const item of items) {
    const root = find(item.id);
    const group = groups.get(root);
    if (group) group.push(item);
    else groups.set(root, [item]);
  }
  return [...groups.values()];
}

type Link = readonly [from: string, to: string];

interface Placed {
  readonly ids: readonly string[];
  /** Boxes relative to the component's top-left corner, in the order of ids. */
  readonly boxes: readonly Box[];
  readonly width: number;
  readonly height: number;
  readonly name: string;
}

/** Lays out one component with dagre; links are [from, to] positions in items. */
function layOutComponent(items: readonly RoutingItem[], links: ReadonlyArray<readonly [number, number]>): Placed {
  const graph = new dagre.graphlib.Graph({ multigraph: false });
  graph.setGraph({ rankdir: 'LR', nodesep: NODE_SEP, ranksep: RANK_SEP, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  items.forEach((item, index) => graph.setNode(String(index), { ...NODE_SIZE[item.kind] }));
  for (const [from, to] of links) graph.setEdge(String(from), String(to));
  if (links.length > 0) dagre.layout(graph);
  const centred = items.map((item, index) => {
    const node = graph.node(String(index)) as { x?: number; y?: number };
    const size = NODE_SIZE[item.kind];
    return { x: (node.x ?? 0) - size.width / 2, y: (node.y ?? 0) - size.height / 2, ...size };
  });
  const minX = Math.min(...centred.map((box) => box.x));
  const minY = Math.min(...centred.map((box) => box.y));
  const boxes = centred.map((box) => ({ ...box, x: box.x - minX, y: box.y - minY }));
  return {
    ids: items.map((item) => item.id),
    boxes,
    width: Math.max(...boxes.map((box) => box.x + box.width)),
    height: Math.max(...boxes.map((box) => box.y + box.height)),
    name: '',
  };
}

/** A component is known by its first address (alphabetically), else by its first item. */
const nameOf = (items: readonly RoutingItem[]): string =>
  items
    .filter((item) => item.kind === 'address')
    .map((item) => item.name)
    .sort()[0] ??
  items[0]?.name ??
  '';

/** The layout of a graph; the same graph always gives the same layout. */
export function layOutRoutingGraph(graph: RoutingGraph): RoutingLayout {
  const known = new Set(graph.items.map((item) => item.id));
  const links: Link[] = graph.edges
    .filter((edge) => LAYOUT_EDGE_KINDS.has(edge.kind) && edge.from !== edge.to)
    .filter((edge) => known.has(edge.from) && known.has(edge.to))
    .map((edge) => [edge.from, edge.to] as const);
  const groups = componentsOf(graph.items, links);
  // Each link in its component's own positions.
  const position = new Map<string, { group: number; index: number }>();
  groups.forEach((members, group) => members.forEach((item, index) => position.set(item.id, { group, index })));
  const groupLinks = groups.map((): Array<readonly [number, number]> => []);
  for (const [from, to] of links) {
    const a = position.get(from);
    const b = position.get(to);
    if (a && b) groupLinks[a.group]?.push([a.index, b.index]);
  }

  // Most components repeat a few shapes (an address with two queues): dagre lays each shape out once.
  const byShape = new Map<string, Placed>();
  const placed = groups.map((items, group): Placed => {
    const own = groupLinks[group] ?? [];
    const shape = `${items.map((item) => item.kind).join(',')}|${own.map(([a, b]) => `${String(a)}>${String(b)}`).join(',')}`;
    const ids = items.map((item) => item.id);
    const laidOut = byShape.get(shape) ?? layOutComponent(items, own);
    byShape.set(shape, laidOut);
    return { ...laidOut, ids, name: nameOf(items) };
  });
  // Largest first (they are what routing is about), then by name, so the packing is stable.
  placed.sort((a, b) => b.ids.length - a.ids.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  // Rows about as wide as the whole would be tall at 16:10, never narrower than the widest component.
  const area = placed.reduce((sum, part) => sum + (part.width + COMPONENT_GAP) * (part.height + COMPONENT_GAP), 0);
  const rowWidth = Math.max(Math.sqrt(area * 1.6), ...placed.map((part) => part.width));
  const boxes = new Map<string, Box>();
  const firstView: string[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  for (const part of placed) {
    if (x > 0 && x + part.width > rowWidth) {
      x = 0;
      y += rowHeight + COMPONENT_GAP;
      rowHeight = 0;
    }
    part.boxes.forEach((box, index) => {
      const id = part.ids[index];
      if (id !== undefined) boxes.set(id, { ...box, x: box.x + x, y: box.y + y });
    });
    if (firstView.length === 0 || (x + part.width <= FIRST_VIEW.width && y + part.height <= FIRST_VIEW.height))
      firstView.push(...part.ids);
    x += part.width + COMPONENT_GAP;
    width = Math.max(width, x - COMPONENT_GAP);
    rowHeight = Math.max(rowHeight, part.height);
  }
  return { boxes, width, height: placed.length ? y + rowHeight : 0, components: placed.length, firstView };
}

/** The box around the given items (all when none are given): what the view fits into its first viewport. */
export function boundsOf(layout: RoutingLayout, ids?: readonly string[]): Box {
  const boxes = ids ? ids.flatMap((id) => layout.boxes.get(id) ?? []) : [...layout.boxes.values()];
  if (boxes.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  const x = Math.min(...boxes.map((box) => box.x));
  const y = Math.min(...boxes.map((box) => box.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((box) => box.x + box.width)) - x,
    height: Math.max(...boxes.map((box) => box.y + box.height)) - y,
  };
}
