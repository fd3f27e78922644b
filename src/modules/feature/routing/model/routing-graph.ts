// The routing graph: every address, queue, divert, bridge and cluster connection of a cluster as one set of items
// merged across its nodes, and the edges a message can travel. An item some nodes lack is marked with them: a divert
// on one node only routes differently depending on where a producer connects, a defect in itself.

export type RoutingItemKind = 'address' | 'queue' | 'divert' | 'bridge' | 'cluster-connection';

export type RoutingEdgeKind =
  /** address → queue bound to it */
  | 'binds'
  /** address → divert on it */
  | 'diverts'
  /** divert → forwarding address; bridge → forwarding address (remote) */
  | 'forwards'
  /** queue → bridge consuming it */
  | 'bridges'
  /** address → its dead-letter address */
  | 'dead-letter'
  /** address → its expiry address */
  | 'expiry'
  /** cluster connection → address it load-balances */
  | 'balances';

/** A fact shown when the item is clicked, as a label and a printable value. */
export type RoutingFacts = Readonly<Record<string, string | number | boolean | null>>;

export interface RoutingItem {
  /** `${kind}:${name}`: unique in a graph. */
  readonly id: string;
  readonly kind: RoutingItemKind;
  readonly name: string;
  /** The facts of the first node holding it (by node name). */
  readonly facts: RoutingFacts;
  /** Node ids holding it. */
  readonly presentOn: readonly string[];
  /** Node ids of the graph lacking it: empty when every node has it. */
  readonly missingOn: readonly string[];
  /** Fact names whose value differs between the nodes holding it (e.g. a divert's filter). */
  readonly differs: readonly string[];
}

export interface RoutingEdge {
  /** `${kind}:${from}->${to}` */
  readonly id: string;
  readonly kind: RoutingEdgeKind;
  readonly from: string;
  readonly to: string;
  readonly presentOn: readonly string[];
  readonly missingOn: readonly string[];
}

interface RoutingGraphNode {
  readonly nodeId: string;
  readonly nodeName: string;
}

export interface RoutingGraph {
  readonly nodes: readonly RoutingGraphNode[];
  readonly items: readonly RoutingItem[];
  readonly edges: readonly RoutingEdge[];
}

export const itemId = (kind: RoutingItemKind, name: string): string => `${kind}:${name}`;
export const edgeId = (kind: RoutingEdgeKind, from: string, to: string): string => `${kind}:${from}->${to}`;
