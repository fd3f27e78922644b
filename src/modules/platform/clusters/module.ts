import { defineModule } from '../../kernel/plugin/descriptor.ts';

const check = (name: 'reachability' | 'authentication' | 'version' | 'capabilities' | 'topology') =>
  import('./server/registration/builtin-checks.ts').then((checks) => checks[name]);

export const clustersModule = defineModule({
  id: 'clusters',
  title: 'Clusters',
  layer: 'platform',
  description:
    'Registration, nodes, encrypted credentials, environments, discovery, HA and split-brain detection, serving nodes and the capability ledger.',
  requires: ['core', 'plugin', 'security', 'audit', 'broker'],
  permissions: [
    { id: 'cluster:read', description: 'See a cluster, its nodes, HA state and capabilities', includedIn: 'viewer' },
    {
      id: 'cluster:write',
      description: 'Register, change and remove clusters and environments',
      includedIn: 'admin',
    },
  ],
  apiPrefixes: ['/api/v1/clusters', '/api/v1/environments'],
  registrationChecks: [
    { id: 'reachability', title: 'Reachability', blocking: true, load: () => check('reachability') },
    { id: 'authentication', title: 'Authentication', blocking: true, load: () => check('authentication') },
    { id: 'version', title: 'Broker version', blocking: false, load: () => check('version') },
    { id: 'capabilities', title: 'Capabilities', blocking: true, load: () => check('capabilities') },
    { id: 'topology', title: 'Topology', blocking: false, load: () => check('topology') },
  ],
  clusterLocator: () => import('./server/cluster-locator.ts').then((module) => module.clusterLocator),
  healthIndicators: [
    { id: 'ha', load: () => import('./ha/ha.health.ts') },
    { id: 'subscriptions', load: () => import('./ha/subscriptions.health.ts') },
  ],
  // HA changes (serving node, split-brain) are `topology` signals; `health` is the jobs module's topic.
  topics: ['topology'],
  workerServices: [{ id: 'ha', stage: 'subscriptions', load: () => import('./ha/ha.service.ts') }],
});
