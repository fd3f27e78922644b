import { GrantsScreen } from '@/modules/kernel/security/ui/grants.screen.tsx';

export default function GrantsPage() {
  return <GrantsScreen />;
}
