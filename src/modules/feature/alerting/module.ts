import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { streamEventSources } from '@/modules/kernel/stream/module.ts';
import { telemetrySources } from '@/modules/platform/telemetry/module.ts';
import { ALERTING_SETTING_KEYS, alertingSettings } from './server/alerting.settings.ts';
import { alertConditions } from './server/condition.ts';

// The point other modules contribute alert conditions to (request-reply contributes two), and its contract.
export { alertConditions };
export type { AlertCondition, ConditionResult } from './server/condition.ts';

const condition = (name: 'nodeDown' | 'splitBrain') =>
  import('./server/conditions/builtin-conditions.ts').then((conditions) => conditions[name]);

export const alertingModule = defineModule({
  id: 'alerting',
  title: 'Alerting',
  layer: 'feature',
  description:
    'Alert rules evaluated after every scrape tier by the worker that owns the cluster: conditions contributed by modules (queue thresholds, consumer health, DLQ growing, node down, split-brain, capability and subscription lost), alerts pending → firing → resolved with acknowledge and silence, flapping damped, every transition audited and on the alerts topic, delivered to signed webhooks, Slack-compatible webhooks and email over SMTP with retries.',
  requires: ['core', 'access', 'audit', 'stream', 'clusters', 'scrape', 'governance', 'telemetry'],
  uses: ['metrics'],
  permissions: [
    { id: 'alert:read', description: 'See alerts, alert rules and notification channels', includedIn: 'viewer' },
    {
      id: 'alert:write',
      description: 'Change alert rules and channels, acknowledge and silence alerts',
      includedIn: 'operator',
    },
  ],
  settings: alertingSettings,
  topics: ['alerts'],
  apiPrefixes: ['/api/v1/alerts'],
  jobs: [
    {
      id: 'alerting.retention',
      description: 'Deletes resolved alerts, their deliveries and alert transitions older than alerting.retention.',
      schedule: { everySetting: ALERTING_SETTING_KEYS.reaperInterval },
      exclusive: true,
      load: () => import('./server/jobs/alerting-retention.job.ts'),
    },
  ],
  extensionPoints: [alertConditions],
  contributions: [
    contribution(telemetrySources, {
      id: 'alerting',
      load: async () => (await import('./server/alerting-telemetry.ts')).alertingTelemetry,
    }),
    contribution(streamEventSources, { topic: 'alerts', load: () => import('./server/alert-stream.ts') }),
    contribution(alertConditions, {
      kind: 'queue-threshold',
      describe:
        'A queue number (depth, consumers, in or out rate, growth over a window, age of the oldest message) crosses a threshold',
      load: () => import('./server/conditions/queue-threshold.ts').then((loaded) => loaded.queueThreshold),
    }),
    contribution(alertConditions, {
      kind: 'node-down',
      describe: 'A node’s last management poll failed (down or unreachable)',
      load: () => condition('nodeDown'),
    }),
    contribution(alertConditions, {
      kind: 'split-brain',
      describe: 'A logical node has two serving members (corroborated split-brain)',
      load: () => condition('splitBrain'),
    }),
    contribution(alertConditions, {
      kind: 'consumer-health',
      describe: 'A queue’s consumer-health verdict is one of the rule’s (default STALLED)',
      load: () => import('./server/conditions/consumer-health.ts').then((loaded) => loaded.consumerHealth),
    }),
    contribution(alertConditions, {
      kind: 'dlq-growing',
      describe: 'A dead-letter queue (named by the address settings) grew over the rule’s window',
      load: () => import('./server/conditions/dlq-growing.ts').then((loaded) => loaded.dlqGrowing),
    }),
    contribution(alertConditions, {
      kind: 'capability-lost',
      describe: 'A capability of the cluster’s ledger went from available to not',
      load: () => import('./server/conditions/capability-lost.ts').then((loaded) => loaded.capabilityLost),
    }),
    contribution(alertConditions, {
      kind: 'subscription-lost',
      describe: 'A serving node’s notification subscription is not established',
      load: () => import('./server/conditions/subscription-lost.ts').then((loaded) => loaded.subscriptionLost),
    }),
  ],
  workerServices: [{ id: 'alerting', stage: 'scrape', load: () => import('./server/alerting.worker.ts') }],
});
