'use client';
// Activity → Events: events live per cluster, so this screen picks the cluster (or opens the only one).
import { ClusterChoice } from '@/modules/platform/clusters/ui.ts';
import { eventsPath } from './event-paths.ts';

export function EventsHomeScreen() {
  return (
    <ClusterChoice
      title="Events"
      description="Broker notifications are kept per cluster; pick the cluster."
      noClusters="Register a cluster and its brokers' notifications appear here."
      pathOf={eventsPath}
    />
  );
}
