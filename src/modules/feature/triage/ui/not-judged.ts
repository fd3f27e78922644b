// Which clusters the Triage screen must name as not judged: consumer health needs fresh samples, so a cluster with no
// node answering (DOWN) or never polled (UNKNOWN) has its queues fall to "not enough data", which triage does not list.
// Without a word the screen would read "Nothing needs attention" for a fleet whose worst cluster cannot be seen.
import type { RouterOutputs } from '@/ui/data/trpc.ts';

/** What triage needs of a fleet entry: `verdicts` is null when the viewer may not read the cluster's metrics. */
export type ClusterForTriage = Pick<
  RouterOutputs['triage']['fleet']['clusters'][number],
  'id' | 'name' | 'health' | 'problems' | 'verdicts'
>;

export interface NotJudgedCluster {
  readonly id: string;
  readonly name: string;
  /** Why, in words: the fleet's problems of the cluster ("no node answers", "never polled yet"). */
  readonly why: string;
}

export function clustersNotJudged(clusters: readonly ClusterForTriage[]): NotJudgedCluster[] {
  return clusters
    .filter((cluster) => cluster.verdicts !== null && (cluster.health === 'DOWN' || cluster.health === 'UNKNOWN'))
    .map((cluster) => ({ id: cluster.id, name: cluster.name, why: cluster.problems.join('; ') }));
}
