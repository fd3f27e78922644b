import { defineModule } from '@/modules/kernel/plugin/index.ts';

export const triageModule = defineModule({
  id: 'triage',
  title: 'Triage',
  layer: 'feature',
  description:
    'The fleet at a glance and what needs attention first: every visible cluster with its health, HA state, capability problems, backlog, dead-letter depth and worst consumer-health verdicts; the worst queues across all clusters; a fleet-wide queue search.',
  requires: ['core', 'access', 'clusters', 'scrape', 'metrics'],
  apiPrefixes: ['/api/v1/fleet', '/api/v1/triage', '/api/v1/queues'],
});
