import { defineModule } from '@/modules/kernel/plugin/index.ts';

export const jobsModule = defineModule({
  id: 'jobs',
  title: 'Jobs',
  layer: 'kernel',
  description: 'The one scheduler (in the worker), job status and job health.',
  requires: ['core', 'access', 'plugin', 'settings', 'stream'],
  permissions: [{ id: 'jobs:read', description: 'See scheduled jobs and their status', includedIn: 'viewer' }],
  topics: ['health'],
  apiPrefixes: ['/api/v1/system/jobs'],
  healthIndicators: [{ id: 'jobs', load: () => import('./server/jobs.health.ts') }],
});
