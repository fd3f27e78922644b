// Nodes grouped into logical nodes (primary and backup sharing a NodeID), primary first, with the serving one:
// the node whose last polled Active is true. Pure, for the overview and the topology view.

export interface NodeLike {
  readonly id: string;
  readonly logicalNode: string;
  readonly role: string;
  readonly active: boolean | null;
}

export interface LogicalGroup<Node extends NodeLike> {
  readonly key: string;
  readonly members: readonly Node[];
  /** The active member; undefined before the first HA poll or while none serves. */
  readonly serving: Node | undefined;
  /** More than one member reads Active: what split-brain looks like in one poll (the HA side corroborates). */
  readonly severalActive: boolean;
}

export function groupLogicalNodes<Node extends NodeLike>(nodes: readonly Node[]): LogicalGroup<Node>[] {
  const groups = new Map<string, Node[]>();
  for (const node of nodes) groups.set(node.logicalNode, [...(groups.get(node.logicalNode) ?? []), node]);
  return [...groups].map(([key, members]) => {
    const sorted = [...members].sort((a, b) => (a.role === b.role ? 0 : a.role === 'PRIMARY' ? -1 : 1));
    const active = sorted.filter((node) => node.active === true);
    return { key, members: sorted, serving: active[0], severalActive: active.length > 1 };
  });
}
