// One HA pass over a cluster after tier A: serving members and split-brain verdicts from the polled columns and
// the in-memory ratchets, and the node rows whose persisted HA verdict changed (so signals go out only on change).
import { logicalNodesOf, observePair, servingMemberIds, type LogicalNode, type PolledNode } from './logical-nodes.ts';
import { advanceRatchet, resumeRatchet, type RatchetState } from './split-brain-ratchet.ts';

/** A node with the HA verdict persisted by the previous pass. */
export interface HaNode extends PolledNode {
  readonly serving: boolean;
  readonly splitBrainSince: Date | null;
}

export interface PairMemory {
  readonly ratchet: RatchetState;
  /** The newest poll already counted, so a repeated notification never counts one poll twice. */
  readonly lastPollAt: number;
}

export interface NodeVerdict {
  readonly id: string;
  readonly serving: boolean;
  readonly splitBrainSince: Date | null;
}

export interface SplitBrain {
  readonly logicalNode: string;
  readonly since: Date;
  readonly nodeIds: readonly string[];
}

export interface HaPassResult {
  readonly memory: Map<string, PairMemory>;
  readonly servingIds: ReadonlySet<string>;
  readonly splitBrains: readonly SplitBrain[];
  /** Only the nodes whose serving flag or split-brain verdict differs from the persisted one. */
  readonly changed: readonly NodeVerdict[];
  readonly servingChanged: boolean;
  readonly splitBrainChanged: boolean;
}

function newestPollAt(logical: LogicalNode): number {
  let newest = 0;
  for (const node of logical.members) {
    newest = Math.max(newest, node.lastSuccessAt?.getTime() ?? 0, node.lastFailureAt?.getTime() ?? 0);
  }
  return newest;
}

function persistedSince(logical: LogicalNode<HaNode>): Date | null {
  return logical.members.find((node) => node.splitBrainSince)?.splitBrainSince ?? null;
}

export function runHaPass(nodes: readonly HaNode[], previous: ReadonlyMap<string, PairMemory>): HaPassResult {
  const memory = new Map<string, PairMemory>();
  const servingIds = new Set<string>();
  const splitBrains: SplitBrain[] = [];
  const previouslyServing = new Set(nodes.filter((node) => node.serving).map((node) => node.id));
  const verdicts: NodeVerdict[] = [];

  for (const logical of logicalNodesOf(nodes)) {
    const remembered = previous.get(logical.key) ?? { ratchet: resumeRatchet(persistedSince(logical)), lastPollAt: 0 };
    const pollAt = newestPollAt(logical);
    const isNewPoll = pollAt > remembered.lastPollAt && logical.members.some((node) => node.lastSuccessAt);
    const ratchet = isNewPoll
      ? advanceRatchet(remembered.ratchet, observePair(logical), new Date(pollAt))
      : remembered.ratchet;
    memory.set(logical.key, { ratchet, lastPollAt: Math.max(pollAt, remembered.lastPollAt) });

    const serving = servingMemberIds(logical, previouslyServing);
    for (const id of serving) servingIds.add(id);
    if (ratchet.raised && ratchet.since) {
      splitBrains.push({ logicalNode: logical.key, since: ratchet.since, nodeIds: logical.members.map((n) => n.id) });
    }
    for (const node of logical.members) {
      verdicts.push({ id: node.id, serving: servingIds.has(node.id), splitBrainSince: ratchet.since });
    }
  }

  const byId = new Map(nodes.map((node) => [node.id, node]));
  const changed = verdicts.filter((verdict) => {
    const before = byId.get(verdict.id);
    return (
      before?.serving !== verdict.serving ||
      (before.splitBrainSince?.getTime() ?? null) !== (verdict.splitBrainSince?.getTime() ?? null)
    );
  });
  return {
    memory,
    servingIds,
    splitBrains,
    changed,
    servingChanged: changed.some((verdict) => byId.get(verdict.id)?.serving !== verdict.serving),
    splitBrainChanged: changed.some(
      (verdict) => (byId.get(verdict.id)?.splitBrainSince === null) !== (verdict.splitBrainSince === null),
    ),
  };
}
