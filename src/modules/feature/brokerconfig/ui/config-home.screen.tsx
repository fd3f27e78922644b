'use client';
// Configuration → Broker configuration: a declared configuration is a cluster's, so this screen picks the cluster (or
// opens the only one).
import { ClusterChoice } from '@/modules/platform/clusters/ui.ts';
import { configPath } from './config-paths.ts';

export function ConfigHomeScreen() {
  return (
    <ClusterChoice
      title="Broker configuration"
      description="Each cluster's address settings, security settings, diverts, bridges and queues are declared, reviewed and applied per cluster; pick the cluster."
      noClusters="Register a cluster and its broker configuration can be declared here."
      pathOf={(clusterId) => configPath(clusterId)}
    />
  );
}
