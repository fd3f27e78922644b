import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { resourcesSettings } from './server/resources.settings.ts';

export const resourcesModule = defineModule({
  id: 'resources',
  title: 'Resources',
  layer: 'feature',
  description:
    'Live-through addresses, consumers, producers, sessions and connections merged across the serving nodes (one management call per node, shared for a few seconds, refreshed by the events module’s signals), and the facts of each node: version, uptime, memory and disk against their limits, paging and full addresses.',
  requires: ['core', 'access', 'stream', 'broker', 'clusters', 'commands', 'governance'],
  permissions: [
    {
      id: 'resource:read',
      description: 'See a cluster’s addresses, consumers, producers, sessions, connections and node facts',
      includedIn: 'viewer',
    },
    { id: 'address:write', description: 'Create and delete addresses', includedIn: 'operator' },
    { id: 'connection:close', description: 'Close a client’s connection', includedIn: 'operator' },
  ],
  settings: resourcesSettings,
  apiPrefixes: [
    '/api/v1/clusters/{clusterId}/addresses',
    '/api/v1/clusters/{clusterId}/consumers',
    '/api/v1/clusters/{clusterId}/producers',
    '/api/v1/clusters/{clusterId}/sessions',
    '/api/v1/clusters/{clusterId}/connections',
    '/api/v1/clusters/{clusterId}/node-facts',
  ],
});
