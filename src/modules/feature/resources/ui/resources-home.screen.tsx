'use client';
// Resources → Addresses, Consumers, Producers, Sessions or Connections: they live per cluster, so this screen picks
// the cluster (or opens the only one).
import { ClusterChoice } from '@/modules/platform/clusters/ui.ts';
import { resourceListPath, type ResourceListKind } from './resource-paths.ts';

const TITLES: Record<ResourceListKind, string> = {
  addresses: 'Addresses',
  consumers: 'Consumers',
  producers: 'Producers',
  sessions: 'Sessions',
  connections: 'Connections',
};

export function ResourcesHomeScreen({ kind }: { kind: ResourceListKind }) {
  return (
    <ClusterChoice
      title={TITLES[kind]}
      description={`${TITLES[kind]} are read live from each cluster's serving nodes; pick the cluster.`}
      noClusters={`Register a cluster to see its ${kind}.`}
      pathOf={(clusterId) => resourceListPath(clusterId, kind)}
    />
  );
}
