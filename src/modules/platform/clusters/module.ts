import { defineModule } from '../../kernel/plugin/descriptor.ts';

export const clustersModule = defineModule({
  id: 'clusters',
  title: 'Clusters',
  layer: 'platform',
  description:
    'Registration, nodes, encrypted credentials, environments, discovery, HA and split-brain detection, serving nodes and the capability ledger.',
  requires: ['core', 'security', 'audit', 'broker'],
  permissions: [
    { id: 'cluster:read', description: 'See a cluster, its nodes, HA state and capabilities', includedIn: 'viewer' },
    {
      id: 'cluster:write',
      description: 'Register, change and remove clusters and environments',
      includedIn: 'admin',
    },
  ],
  apiPrefixes: ['/api/v1/clusters', '/api/v1/environments'],
  clusterLocator: () => import('./server/cluster-locator.ts').then((module) => module.clusterLocator),
  healthIndicators: [
    { id: 'ha', load: () => import('./ha/ha.health.ts') },
    { id: 'subscriptions', load: () => import('./ha/subscriptions.health.ts') },
  ],
  // HA changes (serving node, split-brain) are `topology` signals; `health` is the jobs module's topic.
  topics: ['topology'],
  workerServices: [{ id: 'ha', stage: 'subscriptions', load: () => import('./ha/ha.service.ts') }],
});
