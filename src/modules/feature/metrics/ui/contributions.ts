import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { ClusterChartsPanel } from './cluster-charts-panel.tsx';
import { ClusterHealthSummary } from './cluster-health-summary.tsx';
import { ConsumerHealthPanel } from './consumer-health-panel.tsx';
import { QueueChartsPanel } from './queue-charts-panel.tsx';

export const metricsUi = defineModuleUi({
  moduleId: 'metrics',
  routes: ['/clusters/{clusterId}/consumer-health'],
  contributions: [
    { slot: 'cluster.header', id: 'consumer-health-summary', order: 30, component: ClusterHealthSummary },
    { slot: 'cluster.header', id: 'cluster-charts', order: 40, component: ClusterChartsPanel },
    { slot: 'queue.detail.panels', id: 'consumer-health', order: 5, component: ConsumerHealthPanel },
    { slot: 'queue.detail.panels', id: 'queue-charts', order: 10, component: QueueChartsPanel },
  ],
});
