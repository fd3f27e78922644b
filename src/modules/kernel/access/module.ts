import { createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import type { ClusterLocatorContribution } from './cluster-locator.ts';
import type { DenialLogContribution } from './denial-log-contract.ts';

export type { ClusterLocator, ClusterLocatorContribution } from './cluster-locator.ts';
export type { Denial, DenialLog, DenialLogContribution } from './denial-log-contract.ts';

/** Where a cluster sits, for the cluster access guard: contributed by the one module that owns clusters. */
export const clusterLocatorPoint = createExtensionPoint<ClusterLocatorContribution>({
  id: 'access.cluster-locator',
  owner: 'access',
  cardinality: 'one',
});

/** Where refused calls are kept (deduplicated), and who has caused too many such rows: the audit module answers. */
export const denialLogPoint = createExtensionPoint<DenialLogContribution>({
  id: 'access.denial-log',
  owner: 'access',
  cardinality: 'one',
});

export const accessModule = defineModule({
  id: 'access',
  title: 'Access',
  layer: 'kernel',
  description:
    'The procedure kit and the checks every call passes: access rules, permissions, the cluster access guard.',
  requires: ['core'],
  apiPrefixes: ['/api/v1/manifest'],
  extensionPoints: [clusterLocatorPoint, denialLogPoint],
});
