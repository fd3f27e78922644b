import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { routingSettings } from './server/routing.settings.ts';

export const routingModule = defineModule({
  id: 'routing',
  title: 'Routing',
  layer: 'feature',
  description:
    'Where messages go: a cluster’s addresses, queues, diverts, bridges, cluster connections and dead-letter and expiry routes as one graph merged across its nodes (an item a node lacks is marked), “where would this message go” evaluated with the brokers’ own filter and routing-type rules, the routing.tabs slot (brokerconfig’s Builder), and divert create and remove through the broker command sequence.',
  requires: ['core', 'plugin', 'access', 'broker', 'clusters', 'commands', 'governance'],
  permissions: [
    {
      id: 'routing:read',
      description: 'See a cluster’s routing graph and ask where a message would go',
      includedIn: 'viewer',
    },
    { id: 'divert:write', description: 'Create and remove diverts', includedIn: 'operator' },
  ],
  settings: routingSettings,
  apiPrefixes: ['/api/v1/clusters/{clusterId}/routing', '/api/v1/clusters/{clusterId}/diverts'],
});
