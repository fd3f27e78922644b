import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { createExtensionPoint, defineModule, durationSetting } from '@/modules/kernel/plugin/index.ts';

/** How the audit log shows each row's parameters when it is read: the content policy's view (the governance module). */
export interface AuditParameterView {
  govern(
    runtime: { readonly db: Database; readonly bus: DatabaseBus },
    parameters: ReadonlyArray<Readonly<Record<string, unknown>>>,
  ): Promise<Array<Record<string, unknown>>>;
}

export const auditParameterView = createExtensionPoint<{ id: string; load: () => Promise<AuditParameterView> }>({
  id: 'audit.parameter-view',
  owner: 'audit',
  cardinality: 'one',
});

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
  ],
  apiPrefixes: ['/api/v1/audit'],
  extensionPoints: [auditParameterView],
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
