import { denialLogPoint } from '@/modules/kernel/access/module.ts';
import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { AUDIT_SETTINGS } from './server/audit.settings.ts';
import { auditParameterView } from './server/parameter-view.ts';

export { auditParameterView, type AuditParameterView } from './server/parameter-view.ts';

export const auditModule = defineModule({
  id: 'audit',
  title: 'Audit',
  layer: 'kernel',
  description: 'The audit trail: who did what, when, to which cluster, with what outcome.',
  requires: ['core', 'access'],
  permissions: [{ id: 'audit:read', description: 'Read the audit log', includedIn: 'operator' }],
  settings: Object.values(AUDIT_SETTINGS),
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
      schedule: { everySetting: AUDIT_SETTINGS.retentionSweepInterval.key },
      exclusive: true,
      load: () => import('./server/jobs/audit-retention.job.ts'),
    },
    {
      id: 'audit.interrupted-sweep',
      description: 'Finishes PENDING audit rows whose process ended as INTERRUPTED (ADR 35).',
      schedule: { everySetting: AUDIT_SETTINGS.interruptedSweepInterval.key },
      exclusive: true,
      load: () => import('./server/jobs/audit-interrupted-sweep.job.ts'),
    },
  ],
});
