import { UsersScreen } from '@/modules/kernel/security/ui.ts';

export default function UsersPage() {
  return <UsersScreen />;
}
