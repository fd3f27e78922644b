import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { alertConditions } from './server/condition.ts';

const condition = (name: 'queueThreshold' | 'nodeDown' | 'splitBrain') =>
  import('./server/conditions/builtin-conditions.ts').then((conditions) => conditions[name]);

export const alertingModule = defineModule({
  id: 'alerting',
  title: 'Alerting',
  layer: 'feature',
  description:
    'Alert rules evaluated after every scrape tier by the worker that owns the cluster: conditions contributed by modules (queue thresholds, node down, split-brain), alerts pending → firing → resolved with acknowledge and silence, delivered to signed webhooks and Slack-compatible webhooks with retries.',
  requires: ['core', 'access', 'audit', 'stream', 'clusters', 'scrape', 'governance'],
  permissions: [
    { id: 'alert:read', description: 'See alerts, alert rules and notification channels', includedIn: 'viewer' },
    {
      id: 'alert:write',
      description: 'Change alert rules and channels, acknowledge and silence alerts',
      includedIn: 'operator',
    },
  ],
  topics: ['alerts'],
  apiPrefixes: ['/api/v1/alerts'],
  extensionPoints: [alertConditions],
  contributions: [
    contribution(alertConditions, {
      kind: 'queue-threshold',
      describe: 'A queue number (depth, consumers, in or out rate) crosses a threshold',
      load: () => condition('queueThreshold'),
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
  ],
  workerServices: [{ id: 'alerting', stage: 'scrape', load: () => import('./server/alerting.service.ts') }],
});
