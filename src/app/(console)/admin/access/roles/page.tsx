import { RolesScreen } from '@/modules/kernel/security/ui/roles.screen.tsx';

export default function RolesPage() {
  return <RolesScreen />;
}
