import { GrantsScreen } from '@/modules/kernel/security/ui.ts';

export default function GrantsPage() {
  return <GrantsScreen />;
}
