// One graph from the routing configuration of every node: an item or edge is the same on each node holding it, so the
// graph keeps it once with the nodes that hold it and those that lack it, and names the facts whose values differ
// between the nodes (a divert with another filter on one node). Facts come from the first node by name; a queue's
// message and consumer counts are the sum over the nodes, which naturally differ and are never a difference.
// Pure: the live read (server) and the declared document (brokerconfig's Builder) feed it alike.
import { coveredByClusterConnection } from './address-pattern.ts';
import {
  edgeId,
  itemId,
  type RoutingEdge,
  type RoutingEdgeKind,
  type RoutingFacts,
  type RoutingGraph,
  type RoutingItem,
  type RoutingItemKind,
} from './routing-graph.ts';
import type {
  RoutingAddress,
  RoutingBridge,
  RoutingClusterConnection,
  RoutingDivert,
  RoutingNodeView,
  RoutingQueue,
} from './routing-view.ts';

export { matchesAddress } from './address-pattern.ts';
export { filterRoutingGraph } from './filter-graph.ts';

/** Facts summed over the nodes instead of compared. */
const SUMMED = ['messageCount', 'consumerCount'] as const;

const addressFacts = (address: RoutingAddress): RoutingFacts => ({
  routingTypes: address.routingTypes.join(','),
  deadLetterAddress: address.deadLetterAddress,
  expiryAddress: address.expiryAddress,
  sendToDlaOnNoRoute: address.sendToDlaOnNoRoute,
  redistributionDelay: address.redistributionDelay,
  autoCreateQueues: address.autoCreateQueues,
  internal: address.internal,
});

const queueFacts = (queue: RoutingQueue): RoutingFacts => ({
  address: queue.address,
  routingType: queue.routingType,
  filter: queue.filter,
  durable: queue.durable,
  temporary: queue.temporary,
  internal: queue.internal,
  messageCount: queue.messageCount,
  consumerCount: queue.consumerCount,
});

const divertFacts = (divert: RoutingDivert): RoutingFacts => ({
  address: divert.address,
  forwardingAddress: divert.forwardingAddress,
  exclusive: divert.exclusive,
  filter: divert.filter,
  routingType: divert.routingType,
  transformerClassName: divert.transformerClassName,
});

const bridgeFacts = (bridge: RoutingBridge): RoutingFacts => ({
  queueName: bridge.queueName,
  forwardingAddress: bridge.forwardingAddress,
  filter: bridge.filter,
  transformerClassName: bridge.transformerClassName,
  staticConnectors: bridge.staticConnectors.join(', '),
  discoveryGroupName: bridge.discoveryGroupName,
  started: bridge.started,
});

const clusterConnectionFacts = (connection: RoutingClusterConnection): RoutingFacts => ({
  address: connection.address,
  messageLoadBalancing: connection.messageLoadBalancing,
  maxHops: connection.maxHops,
  started: connection.started,
  staticConnectors: connection.staticConnectors.join(', '),
  discoveryGroupName: connection.discoveryGroupName,
  connectedNodes: connection.connectedNodes,
});

interface ItemSeen {
  readonly kind: RoutingItemKind;
  readonly name: string;
  /** Facts by node id, in node order. */
  readonly byNode: Map<string, RoutingFacts>;
}

interface EdgeSeen {
  readonly kind: RoutingEdgeKind;
  readonly from: string;
  readonly to: string;
  readonly nodes: Set<string>;
}

class GraphBuilder {
  readonly items = new Map<string, ItemSeen>();
  readonly edges = new Map<string, EdgeSeen>();

  item(kind: RoutingItemKind, name: string, nodeId: string, facts: RoutingFacts): void {
    const id = itemId(kind, name);
    const seen = this.items.get(id) ?? { kind, name, byNode: new Map() };
    seen.byNode.set(nodeId, facts);
    this.items.set(id, seen);
  }

  edge(kind: RoutingEdgeKind, from: string, to: string, nodeId: string): void {
    if (from === to) return;
    const id = edgeId(kind, from, to);
    const seen = this.edges.get(id) ?? { kind, from, to, nodes: new Set() };
    seen.nodes.add(nodeId);
    this.edges.set(id, seen);
  }
}

function addNode(builder: GraphBuilder, view: RoutingNodeView): void {
  const node = view.nodeId;
  const address = (name: string) => itemId('address', name);
  for (const entry of view.addresses) {
    builder.item('address', entry.name, node, addressFacts(entry));
    if (entry.deadLetterAddress)
      builder.edge('dead-letter', address(entry.name), address(entry.deadLetterAddress), node);
    if (entry.expiryAddress) builder.edge('expiry', address(entry.name), address(entry.expiryAddress), node);
  }
  for (const queue of view.queues) {
    builder.item('queue', queue.name, node, queueFacts(queue));
    builder.edge('binds', address(queue.address), itemId('queue', queue.name), node);
  }
  for (const divert of view.diverts) {
    const id = itemId('divert', divert.name);
    builder.item('divert', divert.name, node, divertFacts(divert));
    builder.edge('diverts', address(divert.address), id, node);
    builder.edge('forwards', id, address(divert.forwardingAddress), node);
  }
  // Only a bridge needs its queue's address: no map of thousands of queues for a node without bridges.
  const queueAddress =
    view.bridges.length === 0
      ? new Map<string, string>()
      : new Map(view.queues.map((queue) => [queue.name, queue.address]));
  for (const bridge of view.bridges) {
    const id = itemId('bridge', bridge.name);
    builder.item('bridge', bridge.name, node, bridgeFacts(bridge));
    builder.edge('bridges', itemId('queue', bridge.queueName), id, node);
    // Without a forwarding address a bridge sends to the address the message had: its queue's.
    const target = bridge.forwardingAddress ?? queueAddress.get(bridge.queueName);
    if (target) builder.edge('forwards', id, address(target), node);
  }
  const balanced = view.clusterConnections.length === 0 ? [] : view.addresses.filter((entry) => !entry.internal);
  for (const connection of view.clusterConnections) {
    const id = itemId('cluster-connection', connection.name);
    builder.item('cluster-connection', connection.name, node, clusterConnectionFacts(connection));
    for (const entry of balanced)
      if (coveredByClusterConnection(connection.address, entry.name))
        builder.edge('balances', id, address(entry.name), node);
  }
}

function mergedFacts(byNode: ReadonlyMap<string, RoutingFacts>): { facts: RoutingFacts; differs: string[] } {
  // One node (most items of a one-node cluster, thousands of them): its facts as they are, nothing to sum or compare.
  if (byNode.size === 1) return { facts: byNode.values().next().value ?? {}, differs: [] };
  const all = [...byNode.values()];
  const first = all[0] ?? {};
  const facts: Record<string, RoutingFacts[string]> = { ...first };
  for (const name of SUMMED) {
    if (!(name in first)) continue;
    const known = all.map((one) => one[name]).filter((value): value is number => typeof value === 'number');
    facts[name] = known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
  }
  const differs = Object.keys(first).filter(
    (name) => !(SUMMED as readonly string[]).includes(name) && all.some((one) => one[name] !== first[name]),
  );
  return { facts, differs };
}

/**
 * Items that live on one node by nature: a temporary queue (a requester's reply queue), an internal queue or address
 * (a cluster's store-and-forward queue to each peer) and a non-durable multicast queue (a topic subscriber's, on the
 * node its client connected to). Where they are absent is no routing defect, so they are never marked missing.
 */
const isLocalByNature = (facts: RoutingFacts): boolean =>
  facts.temporary === true || facts.internal === true || (facts.routingType === 'MULTICAST' && facts.durable === false);

/** Code-point order: the same on the server and in every browser. */
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The graph of every node's routing configuration; nodes are ordered by name. */
export function buildRoutingGraph(views: readonly RoutingNodeView[]): RoutingGraph {
  const ordered = [...views].sort((a, b) => a.nodeName.localeCompare(b.nodeName));
  const nodeIds = ordered.map((view) => view.nodeId);
  const builder = new GraphBuilder();
  for (const view of ordered) addNode(builder, view);
  /** Node ids split by whether `present` holds them, in node order; on every node needs no test. */
  const presence = (present: ReadonlyMap<string, unknown> | ReadonlySet<string>) =>
    present.size === nodeIds.length
      ? { presentOn: [...nodeIds], missingOn: [] }
      : {
          presentOn: nodeIds.filter((nodeId) => present.has(nodeId)),
          missingOn: nodeIds.filter((nodeId) => !present.has(nodeId)),
        };

  const items: RoutingItem[] = [];
  const localIds = new Set<string>();
  for (const [id, seen] of builder.items) {
    const merged = mergedFacts(seen.byNode);
    const local = isLocalByNature(merged.facts);
    if (local) localIds.add(id);
    const present = presence(seen.byNode);
    items.push({ id, kind: seen.kind, name: seen.name, ...merged, ...present, ...(local ? { missingOn: [] } : {}) });
  }
  // An edge may end at an item no node has (a dead-letter address never created, a bridge's queue): it is kept,
  // missing everywhere.
  const implied = new Set<string>();
  for (const seen of builder.edges.values())
    for (const end of [seen.from, seen.to]) if (!builder.items.has(end)) implied.add(end);
  for (const id of implied) {
    const kind = id.slice(0, id.indexOf(':')) as RoutingItemKind;
    const name = id.slice(kind.length + 1);
    items.push({ id, kind, name, facts: {}, presentOn: [], missingOn: nodeIds, differs: [] });
  }
  const edges: RoutingEdge[] = [];
  for (const [id, seen] of builder.edges) {
    const local = localIds.has(seen.from) || localIds.has(seen.to);
    edges.push({
      id,
      kind: seen.kind,
      from: seen.from,
      to: seen.to,
      ...presence(seen.nodes),
      ...(local ? { missingOn: [] } : {}),
    });
  }
  return {
    nodes: ordered.map((view) => ({ nodeId: view.nodeId, nodeName: view.nodeName })),
    items: items.sort(byId),
    edges: edges.sort(byId),
  };
}
