import { RolesScreen } from '@/modules/kernel/security/ui.ts';

export default function RolesPage() {
  return <RolesScreen />;
}
