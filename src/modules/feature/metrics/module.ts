import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { queueVerdictSource } from '@/modules/feature/queues/module.ts';
import { telemetrySources } from '@/modules/platform/telemetry/module.ts';
import { metricsSettings } from './server/metrics.settings.ts';

export const metricsModule = defineModule({
  id: 'metrics',
  title: 'Metrics',
  layer: 'feature',
  description:
    'Metric history of queues from the scrape’s metric_sample: series per node, downsampled on the server, with rates derived from the counters (resets handled), the charts of the queue page, and consumer health: one verdict per queue saying why its backlog is (not) draining.',
  requires: ['core', 'access', 'stream', 'clusters', 'scrape', 'events', 'queues', 'telemetry'],
  settings: metricsSettings,
  permissions: [{ id: 'metric:read', description: 'See a cluster’s metric history', includedIn: 'viewer' }],
  topics: ['consumer-health'],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/metrics', '/api/v1/clusters/{clusterId}/consumer-health'],
  contributions: [
    contribution(telemetrySources, {
      id: 'consumer-health',
      load: async () => (await import('./server/verdict-telemetry.ts')).verdictTelemetry,
    }),
    contribution(queueVerdictSource, {
      id: 'consumer-health',
      load: async () => (await import('./server/verdict-store.ts')).queueVerdictSourceOf(),
    }),
  ],
  workerServices: [{ id: 'verdicts', stage: 'scrape', load: () => import('./server/verdict-refresher.worker.ts') }],
});
