// The part of a routing graph an address pattern asks for: the addresses it matches with their queues, diverts and the
// bridges consuming those queues, and one hop on either side — where they send (a divert's or bridge's target, the
// dead-letter and expiry addresses, with the queues there) and what sends to them (a divert or bridge forwarding
// there, with its source) — and the cluster connections balancing any address kept. Pure: the API and the screens.
import { matchesAddress } from './address-pattern.ts';
import type { RoutingEdge, RoutingEdgeKind, RoutingGraph, RoutingItem } from './routing-graph.ts';

/** The address an item belongs to, for the items an address pattern selects. */
function addressOfItem(item: RoutingItem): string | null {
  if (item.kind === 'address') return item.name;
  if (item.kind === 'queue' || item.kind === 'divert')
    return typeof item.facts.address === 'string' ? item.facts.address : null;
  return null;
}

const SENDS: ReadonlySet<RoutingEdgeKind> = new Set(['forwards', 'dead-letter', 'expiry']);

export function filterRoutingGraph(graph: RoutingGraph, pattern: string): RoutingGraph {
  const edgesFrom = new Map<string, RoutingEdge[]>();
  const edgesTo = new Map<string, RoutingEdge[]>();
  const add = (map: Map<string, RoutingEdge[]>, key: string, edge: RoutingEdge) => {
    const list = map.get(key);
    if (list) list.push(edge);
    else map.set(key, [edge]);
  };
  for (const edge of graph.edges) {
    add(edgesFrom, edge.from, edge);
    add(edgesTo, edge.to, edge);
  }
  const from = (id: string, kind: RoutingEdgeKind) => (edgesFrom.get(id) ?? []).filter((edge) => edge.kind === kind);
  const to = (id: string, kind: RoutingEdgeKind) => (edgesTo.get(id) ?? []).filter((edge) => edge.kind === kind);

  const core = new Set<string>();
  for (const item of graph.items) {
    const address = addressOfItem(item);
    if (address !== null && matchesAddress(pattern, address)) core.add(item.id);
  }
  // The bridges consuming a matched queue belong to its address too.
  for (const id of [...core]) for (const edge of from(id, 'bridges')) core.add(edge.to);

  const kept = new Set(core);
  for (const id of core) {
    for (const edge of edgesFrom.get(id) ?? []) {
      if (!SENDS.has(edge.kind)) continue;
      kept.add(edge.to);
      for (const bound of from(edge.to, 'binds')) kept.add(bound.to);
    }
    for (const edge of to(id, 'forwards')) {
      kept.add(edge.from);
      for (const source of [...to(edge.from, 'diverts'), ...to(edge.from, 'bridges')]) kept.add(source.from);
    }
  }
  for (const edge of graph.edges) if (edge.kind === 'balances' && kept.has(edge.to)) kept.add(edge.from);

  return {
    nodes: graph.nodes,
    items: graph.items.filter((item) => kept.has(item.id)),
    edges: graph.edges.filter((edge) => kept.has(edge.from) && kept.has(edge.to)),
  };
}
