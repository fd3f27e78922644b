import { AuditScreen } from '@/modules/kernel/audit/ui/audit.screen.tsx';

export default function AuditPage() {
  return <AuditScreen />;
}
