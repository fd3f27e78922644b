// How the clusters are shared out between the workers of every instance (issue 34: several instances). Each worker
// owns at most its fair share, ceil(clusters / live workers), and claims free clusters up to it; a cluster left
// free for a whole pass (nobody under their share took it: an owner just died and is still counted live) is taken
// by whoever sees it, so no cluster waits for the count to catch up. A worker over its share for several passes in a
// row (a new worker came up) hands back its newest clusters for the others to claim; the wait keeps a count that is
// only briefly wrong from moving clusters back and forth.

/** Passes over its share before a worker hands clusters back: longer than a dead worker's report takes to age out. */
export const HAND_BACK_AFTER_PASSES = 3;

export interface OwnershipView {
  /** Clusters this worker owns, in the order it took them. */
  readonly owned: readonly string[];
  /** Clusters nobody owns now. */
  readonly unowned: readonly string[];
  /** Clusters nobody owned at this worker's last pass. */
  readonly freeLastPass: ReadonlySet<string>;
  readonly clusters: number;
  readonly liveWorkers: number;
  /** Passes in a row this worker has been over its share. */
  readonly overSharePasses: number;
}

export interface OwnershipDecision {
  readonly handBack: readonly string[];
  readonly claim: readonly string[];
  readonly overSharePasses: number;
}

export function fairShare(clusters: number, liveWorkers: number): number {
  return Math.ceil(clusters / Math.max(1, liveWorkers));
}

export function decideOwnership(view: OwnershipView): OwnershipDecision {
  const share = fairShare(view.clusters, view.liveWorkers);
  const over = view.owned.length - share;
  const overSharePasses = over > 0 ? view.overSharePasses + 1 : 0;
  const handBack = over > 0 && overSharePasses >= HAND_BACK_AFTER_PASSES ? view.owned.slice(-over) : [];
  const room = Math.max(0, share - (view.owned.length - handBack.length));
  const claim = view.unowned.filter((clusterId, index) => index < room || view.freeLastPass.has(clusterId));
  return { handBack, claim, overSharePasses: handBack.length > 0 ? 0 : overSharePasses };
}
