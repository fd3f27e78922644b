import { IconFileSettings } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { ClusterDriftSummary } from './cluster-drift-summary.tsx';
import { configHomePath } from './config-paths.ts';

export const brokerconfigUi = defineModuleUi({
  moduleId: 'brokerconfig',
  routes: [configHomePath, '/clusters/{clusterId}/config'],
  // Before the console's own Settings (order 0), which stays the last entry of the group.
  navigation: [
    { group: 'configuration', label: 'Broker configuration', href: configHomePath, icon: IconFileSettings, order: -10 },
  ],
  contributions: [{ slot: 'cluster.header', id: 'config-drift-summary', order: 60, component: ClusterDriftSummary }],
});
