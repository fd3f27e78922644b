import { defineModule } from '../plugin/descriptor.ts';
import { durationSetting } from '../plugin/setting-types.ts';

export const auditModule = defineModule({
  id: 'audit',
  title: 'Audit',
  layer: 'kernel',
  description: 'The audit trail: who did what, when, to which cluster, with what outcome.',
  requires: ['core'],
  permissions: [{ id: 'audit:read', description: 'Read the audit log', includedIn: 'operator' }],
  settings: [
    durationSetting({
      key: 'audit.retention',
      description: 'How long audit rows are kept before the retention job deletes them.',
      defaultValue: '365d',
      min: '1d',
      max: '3650d',
    }),
    durationSetting({
      key: 'audit.retention-sweep-interval',
      description: 'How often the retention job looks for audit rows past their retention.',
      defaultValue: '1h',
      min: '1s',
      max: '1d',
    }),
  ],
  apiPrefixes: ['/api/v1/audit'],
  jobs: [
    {
      id: 'audit.retention',
      description: 'Deletes audit rows older than audit.retention, in bounded batches.',
      schedule: { everySetting: 'audit.retention-sweep-interval' },
      exclusive: true,
      load: () => import('./jobs/audit-retention.job.ts'),
    },
  ],
});
