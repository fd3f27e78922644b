// Logical nodes and their serving node, from what tier A last polled. A primary and its backup share the Artemis
// NodeID and count as one logical node; which of them serves follows the polled `Active`, never the configured
// role, so a failover moves the serving node (and with it the notification subscription) to the survivor.

/** One node as tier A left it in `cluster_node`. */
export interface PolledNode {
  readonly id: string;
  readonly brokerNodeId: string | null;
  /** The last polled Active; null before the first successful poll. */
  readonly active: boolean | null;
  readonly lastSuccessAt: Date | null;
  readonly lastFailureAt: Date | null;
}

export interface LogicalNode<N extends PolledNode = PolledNode> {
  /** The shared NodeID, or the node's own id while its NodeID is not known yet. */
  readonly key: string;
  readonly members: readonly N[];
}

/** Groups nodes by NodeID, keeping the input order of members and of first appearance. */
export function logicalNodesOf<N extends PolledNode>(nodes: readonly N[]): LogicalNode<N>[] {
  const groups = new Map<string, N[]>();
  for (const node of nodes) {
    const key = node.brokerNodeId ?? `node:${node.id}`;
    const members = groups.get(key) ?? [];
    members.push(node);
    groups.set(key, members);
  }
  return [...groups].map(([key, members]) => ({ key, members }));
}

/** The node's latest tier-A poll answered (a failure after the last success means its polled state is old). */
function isReachable(node: PolledNode): boolean {
  if (!node.lastSuccessAt) return false;
  return !node.lastFailureAt || node.lastFailureAt.getTime() <= node.lastSuccessAt.getTime();
}

/** Reachable and answering Active on the latest poll. */
function isPolledActive(node: PolledNode): boolean {
  return isReachable(node) && node.active === true;
}

/**
 * The serving members of a logical node: those polled Active. When none answers Active, a member that served
 * before and is now unreachable keeps serving (a missed poll is not a failover; its subscription's own reconnect
 * deals with the outage, and health reports it), while a member that answers Active=false never serves.
 * Normally one id; two during a split-brain.
 */
export function servingMemberIds(logical: LogicalNode, previouslyServing: ReadonlySet<string>): string[] {
  const active = logical.members.filter(isPolledActive).map((node) => node.id);
  if (active.length > 0) return active;
  return logical.members.filter((node) => previouslyServing.has(node.id) && !isReachable(node)).map((node) => node.id);
}

/** What one tier-A poll says about a pair: two or more members answering Active is a split-brain observation. */
export type PairObservation = 'dual-active' | 'single-active' | 'none-active';

export function observePair(logical: LogicalNode): PairObservation {
  const active = logical.members.filter(isPolledActive).length;
  if (active >= 2) return 'dual-active';
  return active === 1 ? 'single-active' : 'none-active';
}
