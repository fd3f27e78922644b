'use client';
// Messaging → Request-reply: flows are a cluster's, so this screen picks the cluster (or opens the only one).
import { ClusterChoice } from '@/modules/platform/clusters/ui.ts';
import { rrFlowsPath } from './rr-paths.ts';

export function RrHomeScreen() {
  return (
    <ClusterChoice
      title="Request-reply"
      description="Request-reply flows are traced per cluster; pick the cluster."
      noClusters="Register a cluster and its request-reply traffic can be traced here."
      pathOf={rrFlowsPath}
    />
  );
}
