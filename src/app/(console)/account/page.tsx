import { AccountScreen } from '@/modules/kernel/security/ui.ts';

export default function AccountPage() {
  return <AccountScreen />;
}
