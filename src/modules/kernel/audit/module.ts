import { denialLogPoint } from '@/modules/kernel/access/module.ts';
import { contribution, defineModule, durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';
import { auditParameterView } from './server/parameter-view.ts';

export { auditParameterView, type AuditParameterView } from './server/parameter-view.ts';

export const auditModule = defineModule({
  id: 'audit',
  title: 'Audit',
  layer: 'kernel',
  description: 'The audit trail: who did what, when, to which cluster, with what outcome.',
  requires: ['core', 'access'],
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
    durationSetting({
      key: 'audit.flood-window',
      description:
        'The window refusals are counted in: one DENIED row per principal, route, reason and cluster in each, and ' +
        'the span audit.flood-rows applies to.',
      defaultValue: '15m',
      min: '1s',
      max: '1d',
    }),
    integerSetting({
      key: 'audit.flood-rows',
      description:
        'Failed, refused, dry-run and denied audit rows one principal may cause in one audit.flood-window; past it their ' +
        'changes are refused (429 audit-flood) until the window ends, so no signed-in caller can flood the log.',
      defaultValue: 500,
      min: 10,
      max: 1_000_000,
    }),
  ],
  apiPrefixes: ['/api/v1/audit'],
  extensionPoints: [auditParameterView],
  processStart: { load: () => import('./server/process-start.ts') },
  contributions: [
    contribution(denialLogPoint, {
      load: () => import('./server/denial-log.ts').then((module) => module.denialLog),
    }),
  ],
  jobs: [
    {
      id: 'audit.retention',
      description: 'Deletes audit rows older than audit.retention, in bounded batches.',
      schedule: { everySetting: 'audit.retention-sweep-interval' },
      exclusive: true,
      load: () => import('./server/jobs/audit-retention.job.ts'),
    },
  ],
});
