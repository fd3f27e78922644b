// Nodes grouped into logical nodes (primary and backup sharing a NodeID), primary first, with the serving one as
// the HA reconciler persisted it (`serving`: follows the polled Active; a dead primary's last Active=true does not
// count once its poll fails). Pure, for the overview and the topology view.

export interface NodeLike {
  readonly id: string;
  readonly logicalNode: string;
  readonly role: string;
  readonly active: boolean | null;
  readonly serving: boolean;
}

export interface LogicalGroup<Node extends NodeLike> {
  readonly key: string;
  readonly members: readonly Node[];
  /** The serving member; undefined before the first HA pass or while none serves. */
  readonly serving: Node | undefined;
  /** More than one member serves (both answered Active on the last poll): what split-brain looks like in one poll;
   *  the HA side corroborates it before raising the cluster's `splitBrain`. */
  readonly severalActive: boolean;
}

export function groupLogicalNodes<Node extends NodeLike>(nodes: readonly Node[]): LogicalGroup<Node>[] {
  const groups = new Map<string, Node[]>();
  for (const node of nodes) groups.set(node.logicalNode, [...(groups.get(node.logicalNode) ?? []), node]);
  return [...groups].map(([key, members]) => {
    const sorted = [...members].sort((a, b) => (a.role === b.role ? 0 : a.role === 'PRIMARY' ? -1 : 1));
    const serving = sorted.filter((node) => node.serving);
    return { key, members: sorted, serving: serving[0], severalActive: serving.length > 1 };
  });
}
