// The audit.parameter-view point, declared here rather than in module.ts so the process-start hook (which module.ts
// loads) can read it without an import cycle; module.ts re-exports it for the contributing module.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import { createExtensionPoint } from '@/modules/kernel/plugin/index.ts';

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
