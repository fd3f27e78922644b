'use client';
// Messaging → Routing: the routing graph is a cluster's, so this screen picks the cluster (or opens the only one).
import { ClusterChoice } from '@/modules/platform/clusters/ui.ts';
import { routingPath } from './routing-paths.ts';

export function RoutingHomeScreen() {
  return (
    <ClusterChoice
      title="Routing"
      description="Where messages go: each cluster's addresses, queues, diverts, bridges and cluster connections as one graph; pick the cluster."
      noClusters="Register a cluster and its routing can be drawn here."
      pathOf={routingPath}
    />
  );
}
