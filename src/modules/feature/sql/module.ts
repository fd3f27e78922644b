import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { storedContent } from '@/modules/platform/governance/module.ts';
import { capturedMessageListeners } from './server/capture/capture-bus.ts';
import { SQL_SETTING_KEYS, sqlSettings } from './server/sql.settings.ts';

// The point the request-reply correlator (feature/rr) contributes its listener to.
export { capturedMessageListeners };

export const sqlModule = defineModule({
  id: 'sql',
  title: 'SQL console',
  layer: 'feature',
  description:
    'Where did that message go: one SQL editor over a live fan-out read of the brokers (selector pushed down), the persisted message_index and a live tail; addresses indexed by sampling a queue or by a capture tap (a non-exclusive divert into a service-owned ring queue, drained by the worker), kept reconciled on every live node, content masked by the policy before it is stored.',
  requires: ['core', 'plugin', 'access', 'audit', 'broker', 'clusters', 'governance', 'scrape'],
  permissions: [
    {
      id: 'sql:query',
      description: 'Run SQL over live brokers, the message index and the tail (content masked by the policy)',
      includedIn: 'operator',
    },
    {
      id: 'capture:manage',
      description: 'Add and remove capture and sampling subscriptions (taps on the brokers)',
      includedIn: 'admin',
    },
  ],
  settings: sqlSettings,
  extensionPoints: [capturedMessageListeners],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/sql', '/api/v1/sql'],
  jobs: [
    {
      id: 'sql.capture-reconcile',
      description:
        'Compares the CAPTURE subscriptions with each serving node’s capture taps on the clusters this worker owns; installs, reinstalls and removes on drift.',
      schedule: { everySetting: SQL_SETTING_KEYS.captureReconcileInterval },
      exclusive: false,
      load: () => import('./server/jobs/capture-reconcile.job.ts'),
    },
    {
      id: 'sql.index-partitions',
      description:
        'Makes message_index day partitions from yesterday to two days ahead, and drops whole days past sql.index.retention.',
      schedule: { everySetting: SQL_SETTING_KEYS.indexMaintenanceInterval },
      exclusive: true,
      load: () => import('./server/jobs/index-partitions.job.ts'),
    },
  ],
  workerServices: [
    { id: 'index-remask', stage: 'scrape', load: () => import('./server/index/remask.worker.ts') },
    { id: 'capture', stage: 'subscriptions', load: () => import('./server/capture/capture.worker.ts') },
    { id: 'sampler', stage: 'subscriptions', load: () => import('./server/sample/sampler.worker.ts') },
  ],
  contributions: [
    contribution(storedContent, {
      id: 'message-index',
      load: async () => (await import('./server/index/remask.ts')).messageIndexStore,
    }),
  ],
});
