import { AuditScreen } from '@/modules/kernel/audit/ui.ts';

export default function AuditPage() {
  return <AuditScreen />;
}
