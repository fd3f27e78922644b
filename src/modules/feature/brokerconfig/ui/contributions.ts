import { IconFileSettings } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { BuilderTab } from './builder/builder-tab.tsx';
import { ClusterDriftSummary } from './cluster-drift-summary.tsx';
import { configHomePath } from './config-paths.ts';

export const brokerconfigUi = defineModuleUi({
  moduleId: 'brokerconfig',
  routes: [configHomePath, '/clusters/{clusterId}/config'],
  // Before the console's own Settings (order 0), which stays the last entry of the group.
  navigation: [
    { group: 'configuration', label: 'Broker configuration', href: configHomePath, icon: IconFileSettings, order: -10 },
  ],
  contributions: [
    { slot: 'cluster.header', id: 'config-drift-summary', order: 60, component: ClusterDriftSummary },
    // On the routing screen, while routing is on: the declared document as its graph, edited into a new revision.
    { slot: 'routing.tabs', id: 'builder', title: 'Builder', order: 10, component: BuilderTab },
  ],
});
