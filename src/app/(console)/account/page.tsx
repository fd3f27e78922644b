import { AccountScreen } from '@/modules/kernel/security/ui/account.screen.tsx';

export default function AccountPage() {
  return <AccountScreen />;
}
