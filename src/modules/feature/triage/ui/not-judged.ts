// Which clusters the Triage screen must name as not judged: consumer health needs fresh samples, so a cluster with no
// node answering (DOWN) or never polled (UNKNOWN) has its queues fall to "not enough data", which triage does not list.
// Without a word the screen would read "Nothing needs attention" for a fleet whose worst cluster cannot be seen.

export interface ClusterForTriage {
  readonly id: string;
  readonly name: string;
  readonly health: 'UP' | 'DEGRADED' | 'DOWN' | 'UNKNOWN';
  readonly problems: readonly string[];
  /** Null when the viewer may not read the cluster's metrics: triage does not cover it either. */
  readonly verdicts: object | null;
}

export interface NotJudgedCluster {
  readonly id: string;
  readonly name: string;
  /** Why, in words: the cluster's own problems when it has them. */
  readonly why: string;
}

export function clustersNotJudged(clusters: readonly ClusterForTriage[]): NotJudgedCluster[] {
  return clusters
    .filter((cluster) => cluster.verdicts !== null && (cluster.health === 'DOWN' || cluster.health === 'UNKNOWN'))
    .map((cluster) => ({
      id: cluster.id,
      name: cluster.name,
      why:
        cluster.problems.length > 0
          ? cluster.problems.join('; ')
          : cluster.health === 'UNKNOWN'
            ? 'not polled yet'
            : 'no node answers',
    }));
}
