import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { alertConditions } from '@/modules/feature/alerting/module.ts';
import { capturedMessageListeners } from '@/modules/feature/sql/module.ts';
import { brokerEventConsumers } from '@/modules/platform/broker/module.ts';
import { storedContent } from '@/modules/platform/governance/module.ts';
import { RR_SETTING_KEYS, rrSettings } from './server/rr.settings.ts';

export const rrModule = defineModule({
  id: 'rr',
  title: 'Request-reply tracing',
  layer: 'feature',
  description:
    'Did the request get an answer: one correlator per cluster (in the worker that owns it) joins requests and replies over a shared reply queue (correlation id) and temporary reply queues (their lifecycle and counters), fed by capture taps when the sql module captures the address and by browsing otherwise; per-address flows with latency percentiles, the correlations that did not complete, declared expectations, two alert conditions and the trace_request_reply tool.',
  requires: ['core', 'plugin', 'access', 'audit', 'broker', 'clusters', 'governance', 'events'],
  // Fed by sql's capture bus while sql is on (sampling otherwise); its two alert conditions count while alerting is on.
  uses: ['sql', 'alerting'],
  permissions: [
    { id: 'rr:read', description: 'See a cluster’s request-reply flows and correlations', includedIn: 'viewer' },
    {
      id: 'rr:manage',
      description: 'Declare, change and remove request-reply expectations',
      includedIn: 'operator',
    },
  ],
  settings: rrSettings,
  topics: ['rr'],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/rr'],
  jobs: [
    {
      id: 'rr.retention',
      description: 'Deletes correlations stored longer ago than events.retention.',
      schedule: { everySetting: RR_SETTING_KEYS.reaperInterval },
      exclusive: true,
      load: () => import('./server/jobs/rr-retention.job.ts'),
    },
  ],
  workerServices: [
    { id: 'remask', stage: 'scrape', load: () => import('./server/store/remask.worker.ts') },
    { id: 'correlator', stage: 'subscriptions', load: () => import('./server/runtime/correlator.worker.ts') },
  ],
  contributions: [
    contribution(storedContent, {
      id: 'rr-events',
      load: async () => (await import('./server/store/remask.ts')).rrEventStore,
    }),
    contribution(capturedMessageListeners, {
      id: 'correlator',
      load: async () => (await import('./server/feeds/capture-listener.ts')).captureListener,
    }),
    contribution(brokerEventConsumers, {
      id: 'correlator',
      load: async () => (await import('./server/feeds/event-consumer.ts')).createRrEventConsumer(),
    }),
    contribution(alertConditions, {
      kind: 'rr-timed-out-share',
      describe: 'The share of a request address’s settled requests that timed out is above a percentage',
      load: () => import('./server/conditions/rr-conditions.ts').then((loaded) => loaded.rrTimedOutShare),
    }),
    contribution(alertConditions, {
      kind: 'rr-p95-latency',
      describe: 'The p95 reply latency of a request address is above a number of milliseconds',
      load: () => import('./server/conditions/rr-conditions.ts').then((loaded) => loaded.rrP95Latency),
    }),
  ],
});
