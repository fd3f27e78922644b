import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { alertConditions } from '@/modules/feature/alerting/module.ts';
import { brokerconfigSettings } from './server/brokerconfig.settings.ts';

export const brokerconfigModule = defineModule({
  id: 'brokerconfig',
  title: 'Broker configuration',
  layer: 'feature',
  description:
    'A cluster’s address settings, security settings, diverts, bridges and queues as a reviewed document: revisions with author, comment and diff; adoption of a live cluster; recommendations; a plan per live node from at most two batched reads with classified hazards and a hash; a canary-first apply through the broker command sequence (advisory lock, 409 plan-changed, optional second-person approval); drift on a schedule and after every apply, on the config topic and as an alert condition; the config_diff tool.',
  requires: ['core', 'plugin', 'access', 'audit', 'stream', 'broker', 'clusters', 'commands', 'governance'],
  // Its drift condition counts while alerting is on; its Builder tab draws with routing's graph, on routing's screen.
  uses: ['alerting', 'routing'],
  permissions: [
    {
      id: 'config:read',
      description: 'See a cluster’s declared configuration, its history, plans and drift',
      includedIn: 'viewer',
    },
    {
      id: 'config:write',
      description: 'Save revisions of a cluster’s declared configuration and its bridge credentials',
      includedIn: 'operator',
    },
    {
      id: 'config:apply',
      description: 'Apply a previewed configuration plan to a cluster’s brokers, and approve one',
      includedIn: 'operator',
    },
  ],
  settings: brokerconfigSettings,
  topics: ['config'],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/config'],
  workerServices: [{ id: 'drift', stage: 'scrape', load: () => import('./server/drift/drift.worker.ts') }],
  contributions: [
    contribution(alertConditions, {
      kind: 'config-drift',
      describe: 'Declared broker configuration items differ from a live node (drifted or missing)',
      load: () => import('./server/conditions/config-drift.ts').then((loaded) => loaded.configDrift),
    }),
  ],
});
