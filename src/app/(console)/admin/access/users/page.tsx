import { UsersScreen } from '@/modules/kernel/security/ui/users.screen.tsx';

export default function UsersPage() {
  return <UsersScreen />;
}
