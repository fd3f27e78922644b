import { clusterLocatorPoint } from '@/modules/kernel/access/module.ts';
import { contribution, createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import { allowedNetworksSetting } from './server/registration/allowed-networks.ts';
import { capabilityRecheckSetting } from './server/capabilities/management-evidence.ts';
import type { RegistrationCheckDeclaration } from './server/registration/registration-check.ts';

export type { RegistrationCheckDeclaration } from './server/registration/registration-check.ts';

/** Checks run on every cluster registration and its dry run: every enabled module's, in module order. */
export const registrationChecks = createExtensionPoint<RegistrationCheckDeclaration>({
  id: 'clusters.registration-checks',
  owner: 'clusters',
  cardinality: 'many',
});

const check = (name: 'reachability' | 'givenNodes' | 'authentication' | 'version' | 'capabilities' | 'topology') =>
  import('./server/registration/builtin-checks.ts').then((checks) => checks[name]);

declare module '@/modules/kernel/core/internal-notifications.ts' {
  interface InternalNotificationMap {
    /** A cluster was saved by registration (clusters → built-in alert rules, the scrape scheduler). */
    ClusterRegistered: { clusterId: string; name: string; environmentId: string | null };
    /** A cluster's nodes, credentials or TLS changed, or it was removed (the scrape scheduler re-reads it). */
    ClusterChanged: { clusterId: string; change: 'updated' | 'removed' };
    /** Which member of a pair serves changed (HA reconciler → the scrape, whose queue totals count the server). */
    ClusterServingChanged: { clusterId: string };
  }
}

export const clustersModule = defineModule({
  id: 'clusters',
  title: 'Clusters',
  layer: 'platform',
  description:
    'Registration, nodes, encrypted credentials, environments, discovery, HA and split-brain detection, serving nodes and the capability ledger.',
  requires: ['core', 'access', 'plugin', 'audit', 'broker', 'stream', 'governance'],
  permissions: [
    { id: 'cluster:read', description: 'See a cluster, its nodes, HA state and capabilities', includedIn: 'viewer' },
    {
      id: 'cluster:write',
      description: 'Register, change and remove clusters and environments',
      includedIn: 'admin',
    },
  ],
  settings: [allowedNetworksSetting, capabilityRecheckSetting],
  apiPrefixes: ['/api/v1/clusters', '/api/v1/environments'],
  extensionPoints: [registrationChecks],
  contributions: [
    contribution(registrationChecks, {
      id: 'reachability',
      title: 'Reachability',
      blocking: true,
      load: () => check('reachability'),
    }),
    contribution(registrationChecks, {
      id: 'given-nodes',
      title: 'Given nodes',
      blocking: true,
      load: () => check('givenNodes'),
    }),
    contribution(registrationChecks, {
      id: 'authentication',
      title: 'Authentication',
      blocking: true,
      load: () => check('authentication'),
    }),
    contribution(registrationChecks, {
      id: 'version',
      title: 'Broker version',
      blocking: false,
      load: () => check('version'),
    }),
    contribution(registrationChecks, {
      id: 'capabilities',
      title: 'Capabilities',
      blocking: true,
      load: () => check('capabilities'),
    }),
    contribution(registrationChecks, {
      id: 'topology',
      title: 'Topology',
      blocking: false,
      load: () => check('topology'),
    }),
    contribution(clusterLocatorPoint, {
      load: () => import('./server/cluster-locator.ts').then((module) => module.clusterLocator),
    }),
  ],
  healthIndicators: [
    { id: 'ha', load: () => import('./ha/ha.health.ts') },
    { id: 'subscriptions', load: () => import('./ha/subscriptions.health.ts') },
  ],
  // HA changes (serving node, split-brain) are `topology` signals; `health` is the jobs module's topic.
  topics: ['topology'],
  workerServices: [{ id: 'ha', stage: 'subscriptions', load: () => import('./ha/ha.worker.ts') }],
  processStart: { load: () => import('./server/process-start.ts') },
});
