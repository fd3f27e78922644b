// The audit log's parameters as the content policy shows them (contributed to audit.parameter-view): credentials a
// caller typed are dropped, card numbers and the like masked, never in clear.
import type { AuditParameterView } from '@/modules/kernel/audit/module.ts';
import { governRecords } from './govern.ts';

export function auditParameterViewOfPolicy(): AuditParameterView {
  return {
    async govern(runtime, parameters) {
      const governed = await governRecords(
        runtime,
        parameters.map((values) => ({ values })),
        { clear: false },
      );
      return governed.map((entry) => entry.value);
    },
  };
}
