import { defineModule } from '../../kernel/plugin/descriptor.ts';

export const queuesModule = defineModule({
  id: 'queues',
  title: 'Queues',
  layer: 'feature',
  description:
    'The cross-node queue grid of a cluster (one row per queue with a cell per node, totals over logical nodes, stale nodes flagged) and the queue detail view.',
  requires: ['core', 'security', 'clusters', 'scrape'],
  permissions: [{ id: 'queue:read', description: 'See a cluster’s queues and their numbers', includedIn: 'viewer' }],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/queues'],
});
